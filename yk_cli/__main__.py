"""Entry point for `python -m yk_cli`."""

from yk_cli.cli import main

if __name__ == "__main__":
    main()
