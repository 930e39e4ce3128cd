"""The keyword-entry record and its hover renderings (markdown and plaintext)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from awl_lsp.reference.excerpt import excerpt

GUIDE_COMMAND = "awl.guide"
"""The command that opens a keyword's full entry (the server answers it; `awl guide WORD` in a shell)."""


def guide_link(keyword: str) -> str:
    """A Markdown command link to the keyword's full entry."""
    args = quote(f'["{keyword}"]')
    return f"[Full entry: `awl guide {keyword}`](command:{GUIDE_COMMAND}?{args})"


SOURCE_REFERENCE = "reference"
"""`KeywordEntry.source` of entries parsed from the user's keyword reference."""

SOURCE_OWN = "awl-lsp"
"""`KeywordEntry.source` of entries written by this project."""


@dataclass(frozen=True)
class EntryText:
    """One keyword's text as authored by this project (its form, document kinds and slots are the
    keyword table's and `slots.py`'s)."""

    keyword: str
    positions: tuple[str, ...]
    description: str
    example: str


@dataclass(frozen=True)
class KeywordEntry:
    """Everything the editor features know about one AWL keyword.

    `positions` are the coarse places the keyword appears, as the reference prints them;
    `slots` are the fine completion contexts (see `awl_lsp.reference.slots`) where the
    word may legally be typed next.
    """

    keyword: str
    description: str
    form: str
    positions: tuple[str, ...]
    slots: tuple[str, ...]
    example: str | None
    source: str
    workloop_only: bool = False
    workflow_only: bool = False

    @property
    def summary(self) -> str:
        """The `form · positions` line, with a note when the word is tied to one flow kind."""
        parts = [self.form, ", ".join(self.positions)]
        if self.workloop_only:
            parts.append("workloop only")
        elif self.workflow_only:
            parts.append("workflow only")
        return " · ".join(part for part in parts if part)

    def markdown(self) -> str:
        """Hover text: bold keyword with its form/positions, the description, an ```awl example."""
        parts = [f"**{self.keyword}** — {self.summary}", self.description]
        if self.example:
            parts.append(f"```awl\n{self.example}\n```")
        return "\n\n".join(parts)

    def hover_markdown(self) -> str:
        """Hover text that fits a screen: form and positions, the sentence, the example cut to the
        block holding the keyword's own line, and a link to the full entry."""
        parts = [f"**{self.keyword}** — {self.summary}", self.description]
        if self.example:
            parts.append(f"```awl\n{excerpt(self.example, self.keyword)}\n```")
        parts.append(guide_link(self.keyword))
        return "\n\n".join(parts)

    def hover_plaintext(self) -> str:
        """`hover_markdown()` for clients that only render plain text."""
        parts = [f"{self.keyword} — {self.summary}", self.description]
        if self.example:
            cut = excerpt(self.example, self.keyword)
            parts.append("Example:\n" + "\n".join(f"    {line}" if line else "" for line in cut.splitlines()))
        parts.append(f"Full entry: awl guide {self.keyword}")
        return "\n\n".join(parts)

    def plaintext(self) -> str:
        """The same content as `markdown()` for clients that only render plain text."""
        parts = [f"{self.keyword} — {self.summary}", self.description]
        if self.example:
            indented = "\n".join(f"    {line}" if line else "" for line in self.example.splitlines())
            parts.append(f"Example:\n{indented}")
        return "\n\n".join(parts)
