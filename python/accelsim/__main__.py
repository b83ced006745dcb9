from accelsim.cli import main

raise SystemExit(main())
