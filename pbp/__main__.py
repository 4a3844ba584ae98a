from pbp.cli import main

main()
