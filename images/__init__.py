"""Board pictures: one renderer per game, state in, Pillow image (or PNG bytes) out."""
