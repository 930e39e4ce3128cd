"""Test-wide settings: the test helpers are importable, and the property tests run fixed examples.

`make test` (and so CI) runs the hypothesis-based differential tests on fixed seeds: the same
examples every run, so a red CI always means a change broke something, never an unlucky draw.
`AWL_FUZZ_RANDOM=1` draws fresh examples instead (with `AWL_FUZZ_EXAMPLES` / `AWL_DIFF_EXAMPLES`
for more of them), which is how new edit sequences get explored.
"""

import os
import sys
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).resolve().parent))

settings.register_profile("fixed", derandomize=True, database=None)
settings.register_profile("explore")
settings.load_profile("explore" if os.environ.get("AWL_FUZZ_RANDOM") == "1" else "fixed")
