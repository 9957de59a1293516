"""Risk in Discord: `/risk new`, `/risk rules`, `/risk attack from: to:` and its wording.

One board message per turn (the turn is the presenter's chapter), edited as the turn goes.
Territory choices are select menus of legal territories only, in the rules file's continent
order (a menu of more than 25 is split by the board, so the halves follow the continents).
Cards and missions stay in the 🔒 private panel, and so do the trades (a menu of every set) and
the choice of the +2 territory, until they are made. Every number a "how many" may take is
offered (`NumberLayout`): the least, half and all as buttons, the numbers between in menus.
"""

from cogs.risk.cog import SPEC, RiskCog
from cogs.risk.presenter import RiskPresenter

__all__ = ["SPEC", "RiskCog", "RiskPresenter"]
