"""The exceptions the package raises.

Every failure the user can cause is one of these (or a `ValueError`/`TypeError` for a
wrong argument at call time), never a crash of the interpreter: compile problems come
back from the compiler as text, which `CompileError` keeps whole and also takes apart
(kind, file, line, the source line itself) so a notebook shows where the problem is.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Optional


class FerrozymeError(Exception):
    """Base class of the package's own exceptions."""


class SignatureError(FerrozymeError, ValueError):
    """The signature does not parse or does not fit the C prototype."""


class ToolchainError(FerrozymeError, RuntimeError):
    """The `ferrozyme` binary, clang-22 or a framework's build tools cannot be found or run."""


# `error[kind]: file:line:col: ...` (Ferrozyme) or `file:line:col: error: ...` (clang).
_FZ_RE = re.compile(r"error\[(?P<kind>[a-z-]+)\]:\s*(?:(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+):)?")
_CLANG_RE = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?:fatal )?error: ", re.M)


class CompileError(FerrozymeError):
    """Compiling the source with Ferrozyme failed.

    Attributes: `message` (everything the compiler printed), `kind` (Ferrozyme's error kind,
    e.g. `missing-derivative`, or `compile` for a C/C++ error), `file`, `line`, `column`
    and `source_line` (the text of that line) when the compiler named a location.
    """

    def __init__(self, message: str, *, command: Optional[list] = None, display_names: Optional[dict] = None,
                 search_dirs: tuple = ()):
        self.message = message
        self.command = command
        self.kind = "compile"
        self.file = self.line = self.column = self.source_line = None
        m = _FZ_RE.search(message)
        if m:
            self.kind = m.group("kind")
            if m.group("file"):
                self.file, self.line, self.column = m.group("file"), int(m.group("line")), int(m.group("col"))
        else:
            m = _CLANG_RE.search(message)
            if m:
                self.file, self.line, self.column = m.group("file"), int(m.group("line")), int(m.group("col"))
        if self.file and not Path(self.file).is_absolute():
            # Debug info names files relative to the compile; find them next to the source.
            for d in search_dirs:
                cand = Path(d)
                if cand.is_file():
                    # clang may record a path relative to some parent of the compile dir
                    if str(cand).endswith("/" + self.file.lstrip("./")):
                        self.file = str(cand)
                        break
                elif (cand / self.file).exists():
                    self.file = str(cand / self.file)
                    break
        if self.file and self.line:
            try:
                text = Path(self.file).read_text(errors="replace").splitlines()
                if 0 < self.line <= len(text):
                    self.source_line = text[self.line - 1]
            except OSError:
                pass
        names = display_names or {}
        shown = message
        for real, disp in names.items():
            shown = shown.replace(real, disp)
        if self.file in names:
            self.file = names[self.file]
        head = shown.strip()
        if self.source_line is not None:
            head += f"\n  --> {self.file}:{self.line}\n   | {self.source_line}"
        super().__init__(head)


__all__ = ["FerrozymeError", "SignatureError", "ToolchainError", "CompileError"]
