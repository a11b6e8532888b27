"""Build hook: record where the repository is, so the installed package can find (or build)
the `ferrozyme` binary of the checkout it was installed from.

Everything else is declared in pyproject.toml. pip builds a local directory in place
(pip >= 21.3), so `__file__` here is inside the checkout.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyWithLocation(build_py):
    def run(self):
        super().run()
        repo = Path(__file__).resolve().parent.parent
        target = Path(self.build_lib) / "ferrozyme" / "_location.py"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(
            "# Written by setup.py at install time: the checkout this package came from.\n"
            f"REPO_ROOT = {str(repo)!r}\n"
        )


setup(cmdclass={"build_py": BuildPyWithLocation})
