import sys

from tps_atlas.cli.main import main

sys.exit(main())
