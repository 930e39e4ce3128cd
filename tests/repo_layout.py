"""A repository generated at test time the way people keep AWL documents: the same example in two
folders, a copy beside a file, two versions of one workflow, a contract whose workflow exists twice,
equally near copies that disagree, fixtures of one name — made from our own documents
(`tests/data/workspace`, `tests/data/spec`) and from the corpus (`$AWL_CORPUS`, read at test time,
copied only into the temporary folder). `Layout` says what was planted where; nothing else in it
may be an error that the document does not have alone.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
CORPUS = Path(os.environ.get("AWL_CORPUS") or REPO.parent / "shared" / "corpus").resolve()

PROGRAM = ("bucket_watch.awl", "flows/archive_object.awl", "flows/checksum.awl")


def program(version: int = 1) -> dict[str, str]:
    """Our three-document program (a workloop hatching a workflow that starts a child); version 2
    renames the child's input, in the child and in the contract for it, consistently."""
    texts = {name: (DATA / "workspace" / name).read_text(encoding="utf-8") for name in PROGRAM}
    if version == 2:
        texts["flows/checksum.awl"] = (
            texts["flows/checksum.awl"]
            .replace("input data: String", "input payload: String")
            .replace("digest(data: data)", "digest(data: payload)")
        )
        texts["flows/archive_object.awl"] = (
            texts["flows/archive_object.awl"]
            .replace("child checksum(data: String)", "child checksum(payload: String)")
            .replace("checksum(data: copied)", "checksum(payload: copied)")
        )
    return texts


@dataclass
class Layout:
    root: Path
    planted: dict[Path, set[str]] = field(default_factory=dict)  # document -> the contract errors planted
    warned: dict[Path, set[str]] = field(default_factory=dict)  # document -> contract warnings expected
    checked_against: dict[Path, Path] = field(default_factory=dict)  # planted document -> its workflow
    open_twice: list[tuple[Path, Path]] = field(default_factory=list)  # (one path, another) of one file
    copies: list[tuple[Path, Path]] = field(default_factory=list)  # (a document, its copy beside it)
    corpus: bool = False

    def write(self, rel: str, text: str) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def folders(self) -> set[Path]:
        return {p.parent for p in self.documents()}

    def documents(self) -> list[Path]:
        return sorted(p for p in self.root.rglob("*.awl") if not p.parent.is_symlink())


def _copy_tree(source: Path, target: Path, only_valid: bool = False) -> None:
    """`.awl` documents and the `.json` schemas beside them (`only_valid`: from `valid/` folders)."""
    for path in sorted(source.rglob("*")):
        if path.suffix not in (".awl", ".json") or not path.is_file():
            continue
        rel = path.relative_to(source)
        if only_valid and "valid" not in rel.parts:
            continue
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target / rel)


def build(root: Path) -> Layout:
    lay = Layout(root.resolve())
    v1, v2 = program(1), program(2)
    # the same example in two folders, and a copy beside one of its documents
    for folder in ("examples", "docs/guide/examples"):
        for name, text in v1.items():
            lay.write(f"{folder}/{name}", text)
    copy = lay.write("examples/flows/checksum copy.awl", v1["flows/checksum.awl"])
    lay.copies.append((lay.root / "examples/flows/checksum.awl", copy))
    # two versions of one workflow (and of the contract for it), and a folder linked to the newest
    for version, texts in (("v1", v1), ("v2", v2)):
        for name, text in texts.items():
            lay.write(f"{version}/{name}", text)
    os.symlink(lay.root / "v2", lay.root / "current", target_is_directory=True)
    lay.open_twice.append(
        (lay.root / "current/flows/archive_object.awl", lay.root / "v2/flows/archive_object.awl")
    )
    # a contract whose workflow exists twice: the one below its folder fits, the one at the top does not
    lay.write("checksum.awl", v2["flows/checksum.awl"])
    lay.write("pipeline/archive_object.awl", v1["flows/archive_object.awl"])
    lay.write("pipeline/lib/checksum.awl", v1["flows/checksum.awl"])
    # equally near copies that disagree: a warning, never an error
    tied = lay.write("tied/archive_object.awl", v1["flows/archive_object.awl"])
    lay.write("tied/a/checksum.awl", v1["flows/checksum.awl"])
    lay.write("tied/b/checksum.awl", v2["flows/checksum.awl"])
    lay.warned[tied] = {"contract-ambiguous"}
    # found only outside its folder (the top-level version 2): a warning
    far = lay.write("apps/main/archive_object.awl", v1["flows/archive_object.awl"])
    lay.warned[far] = {"contract-unknown-input", "contract-missing-input"}
    # a real mismatch beside the contract: still an error, although a fitting workflow lies elsewhere
    salted = v1["flows/checksum.awl"].replace(
        "input data: String", "input data: String\n  input salt: String"
    )
    broken = lay.write("broken/archive_object.awl", v1["flows/archive_object.awl"])
    lay.planted[broken] = {"contract-missing-input"}
    lay.checked_against[broken] = lay.write("broken/checksum.awl", salted)
    # fixtures: ours, and the corpus (whole, and its valid documents again under docs/)
    _copy_tree(DATA / "spec", lay.root / "spec")
    if CORPUS.is_dir():
        _copy_tree(CORPUS, lay.root / "fixtures")
        _copy_tree(CORPUS, lay.root / "docs" / "corpus", only_valid=True)
        lay.corpus = True
    return lay
