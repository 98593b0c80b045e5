"""``python -m ktsolve.cli``: the ``ktsolve`` program, ending as Python programs do."""

from .app import main

if __name__ == "__main__":  # imported by a walk over the package's modules, it runs nothing
    main()
