"""``python -m rulesets.tes.content validate <pack>``: see rulesets.tes.content.cli."""
from rulesets.tes.content.cli import main

raise SystemExit(main())
