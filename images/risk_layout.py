"""Hand-placed world layout for the Risk map: coastlines, territory seed points, where names go.

Coordinates are pixels of the map frame (`MAP_SIZE`), drawn after the classic board: the
Americas on the left, Europe and Africa in the middle, Asia and Australia on the right.
Territory shapes are not drawn by hand: `images.risk_regions` grows them from the seeds below
(each land pixel goes to the nearest seed on its landmass), so only coasts and points are data.
"""

from __future__ import annotations

from images.words import NP_

Point = tuple[float, float]
Polygon = tuple[Point, ...]

MAP_SIZE = (1600, 860)

# Every landmass is one or more polygons (overlapping where they join); territories whose label
# point lies on a landmass share it out between them. Islands are landmasses of their own, so
# a sea lane never becomes a land border.
LANDMASSES: dict[str, tuple[Polygon, ...]] = {
    "americas": (
        (
            (28, 150), (40, 105), (80, 72), (140, 58), (190, 70), (240, 60), (300, 52),
            (350, 60), (395, 85), (400, 160), (430, 175), (455, 150), (460, 110), (475, 92),
            (505, 102), (532, 140), (550, 180), (535, 203), (510, 215), (490, 235), (470, 252),
            (455, 282), (440, 315), (432, 345), (447, 375), (440, 397), (425, 395), (418, 366),
            (395, 360), (360, 366), (335, 377), (322, 396), (336, 418), (348, 442), (368, 460),
            (388, 470), (412, 462), (452, 470), (492, 485), (532, 505), (570, 540), (575, 575),
            (550, 612), (525, 650), (500, 690), (470, 722), (446, 760), (431, 800), (416, 840),
            (400, 842), (392, 810), (385, 760), (374, 710), (355, 662), (340, 620), (330, 580),
            (335, 540), (350, 505), (362, 488), (345, 472), (320, 452), (295, 436), (265, 410),
            (240, 380), (220, 345), (200, 310), (185, 270), (175, 230), (165, 196), (140, 176),
            (110, 166), (80, 170), (55, 175),
        ),
    ),
    "greenland": (
        (
            (480, 45), (560, 25), (650, 22), (690, 40), (660, 80), (630, 120), (600, 160),
            (580, 175), (560, 150), (540, 110), (500, 80),
        ),
    ),
    "iceland": (((660, 140), (688, 122), (728, 124), (748, 146), (724, 172), (674, 170)),),
    "great_britain": (
        (
            (680, 212), (702, 208), (708, 240), (720, 274), (702, 296), (672, 292), (686, 265),
            (674, 240),
        ),
    ),
    "asia": (
        (
            (990, 60), (1050, 55), (1150, 40), (1250, 30), (1350, 35), (1450, 40), (1530, 60),
            (1562, 82), (1512, 122), (1500, 172), (1480, 140), (1450, 150), (1420, 200),
            (1400, 240), (1390, 300), (1370, 330), (1350, 370), (1330, 420), (1300, 450),
            (1290, 500), (1270, 540), (1255, 572), (1245, 545), (1230, 500), (1200, 500),
            (1160, 510), (1130, 560), (1100, 500), (1080, 450), (1050, 470), (1045, 510),
            (1010, 550), (990, 548), (965, 512), (945, 475), (930, 448), (918, 415), (880, 400),
            (852, 392), (868, 352), (940, 346), (965, 310), (990, 300),
        ),
    ),
    # Europe, from Portugal round Scandinavia to the Urals and back by the Black Sea; it joins
    # Asia at the Urals, the Caucasus and the Bosporus.
    "europe": (
        (
            (702, 404), (690, 362), (700, 336), (726, 336), (732, 310), (716, 300), (742, 290),
            (762, 270), (786, 256), (792, 226), (772, 216), (756, 190), (766, 150), (790, 110),
            (820, 80), (860, 62), (900, 65), (930, 80), (1010, 70), (1010, 300), (960, 300),
            (940, 335), (905, 350), (880, 360), (862, 386), (846, 372), (832, 362), (816, 396),
            (804, 402), (808, 380), (790, 364), (776, 342), (752, 346), (736, 362), (728, 396),
        ),
    ),
    # Africa, from Morocco along the Mediterranean to Sinai (where it joins Asia) and round the
    # Cape; the Red Sea keeps it from Arabia.
    "africa": (
        (
            (688, 445), (730, 432), (790, 440), (840, 452), (880, 445), (925, 440), (932, 452),
            (912, 462), (930, 505), (955, 548), (985, 572), (1015, 578), (998, 612), (962, 662),
            (942, 720), (920, 770), (870, 820), (840, 810), (810, 740), (790, 660), (780, 610),
            (750, 565), (700, 560), (670, 532), (655, 492), (664, 462),
        ),
    ),
    "madagascar": (((985, 700), (1000, 690), (1012, 720), (995, 780), (975, 775), (975, 730)),),
    "japan": (
        (
            (1455, 240), (1475, 245), (1495, 290), (1490, 330), (1470, 335), (1465, 300),
            (1450, 270),
        ),
    ),
    "indonesia": (
        ((1250, 590), (1270, 590), (1320, 640), (1310, 650), (1265, 620)),  # Sumatra
        ((1320, 580), (1360, 575), (1370, 610), (1345, 635), (1320, 615)),  # Borneo
    ),
    "new_guinea": (((1400, 570), (1450, 560), (1500, 575), (1520, 600), (1480, 610), (1420, 600)),),
    "australia": (
        (
            (1300, 700), (1340, 670), (1400, 660), (1440, 640), (1470, 650), (1490, 640),
            (1520, 690), (1545, 740), (1530, 790), (1490, 820), (1440, 815), (1400, 790),
            (1350, 800), (1310, 790), (1295, 740),
        ),
    ),
}  # fmt: skip

# Inland seas cut out of the land: the Baltic keeps Sweden and Germany apart but for Denmark.
LAKES: tuple[Polygon, ...] = (
    ((800, 200), (830, 170), (850, 190), (835, 230), (805, 240)),  # Baltic
    ((880, 300), (935, 298), (945, 325), (900, 335)),  # Black Sea
)

# The first point of each territory is where its army badge goes; further points shape it.
SEEDS: dict[str, tuple[Point, ...]] = {
    "alaska": ((95, 120),),
    "northwest_territory": ((250, 110),),
    "greenland": ((575, 70),),
    "alberta": ((230, 200),),
    "ontario": ((340, 210),),
    "quebec": ((470, 190),),
    "western_united_states": ((250, 300),),
    "eastern_united_states": ((380, 310),),
    "central_america": ((300, 410), (340, 440), (365, 455)),
    "venezuela": ((430, 495), (375, 500)),
    "peru": ((375, 600),),
    "brazil": ((490, 570),),
    "argentina": ((410, 740),),
    "iceland": ((702, 148),),
    "scandinavia": ((815, 130),),
    "great_britain": ((695, 262),),
    "northern_europe": ((815, 270),),
    "western_europe": ((716, 366),),
    "southern_europe": ((830, 335),),
    "ukraine": ((930, 200),),
    "north_africa": ((730, 500), (800, 530)),
    "egypt": ((860, 470),),
    "east_africa": ((945, 590), (900, 540)),
    "congo": ((840, 620),),
    "south_africa": ((870, 740),),
    "madagascar": ((993, 735),),
    "ural": ((1070, 180), (1110, 265)),
    "siberia": ((1170, 130), (1195, 245)),
    "yakutsk": ((1300, 90),),
    "kamchatka": ((1450, 100),),
    "irkutsk": ((1290, 190),),
    "mongolia": ((1310, 280),),
    "japan": ((1475, 290),),
    "afghanistan": ((1050, 320),),
    "china": ((1230, 380), (1150, 320)),
    "middle_east": ((990, 450), (915, 385), (975, 340)),
    "india": ((1130, 460),),
    "siam": ((1265, 490),),
    "indonesia": ((1340, 605),),
    "new_guinea": ((1460, 588),),
    "western_australia": ((1360, 740),),
    "eastern_australia": ((1480, 720),),
}

# Where each continent's name and bonus are written, in the sea beside it.
CONTINENT_LABELS: dict[str, Point] = {
    "north_america": (150, 32),
    "south_america": (220, 690),
    "europe": (850, 30),
    "africa": (620, 640),
    "asia": (1450, 420),
    "australia": (1170, 776),
}

# Every territory's name is written on the map, `NAME_BELOW` pixels under its badge unless
# placed in `NAME_POINTS` (a small island or a crowded coast: beside it, on the sea), and in
# the short form of `SHORT_NAMES` where the full name has no room. The map's names are
# translated in their own context (`MAP_NAME`): a language may shorten others to fit.
MAP_NAME = "map name"
NAME_SIZE = 24  # legible when Discord shows the map about 550 px wide
NAME_BELOW = 42
SHORT_NAMES: dict[str, str] = {
    "northwest_territory": NP_("map name", "NW Territory"),
    "western_united_states": NP_("map name", "Western US"),
    "eastern_united_states": NP_("map name", "Eastern US"),
    "central_america": NP_("map name", "C. America"),
    "great_britain": NP_("map name", "G. Britain"),
    "northern_europe": NP_("map name", "N. Europe"),
    "western_europe": NP_("map name", "W. Europe"),
    "southern_europe": NP_("map name", "S. Europe"),
    "western_australia": NP_("map name", "W. Australia"),
    "eastern_australia": NP_("map name", "E. Australia"),
}
NAME_POINTS: dict[str, Point] = {
    "western_united_states": (232, 342),
    "eastern_united_states": (390, 352),
    "central_america": (205, 425),
    "venezuela": (398, 537),
    "iceland": (705, 106),
    "great_britain": (612, 262),
    "western_europe": (624, 382),
    "northern_europe": (815, 222),
    "madagascar": (1094, 735),
    "japan": (1546, 290),
    "indonesia": (1262, 672),
    "western_australia": (1345, 784),
    "eastern_australia": (1490, 762),
    "new_guinea": (1460, 540),
}
