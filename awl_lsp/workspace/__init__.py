"""The workspace: every `.awl` document under the workspace folders, summarised so that documents
can be checked against each other (a `detached` or `child` declaration against the workflow of that
name) and navigated across (definition, references, rename, symbols).

`files` finds documents safely (never outside the folders, bounded in size); `summary` reads what
one document offers and expects of others; `index` keeps the summaries current; `resolution` says
which document a workflow name binds to from the document naming it (`WorkspaceIndex.resolve_flow`,
used by every cross-document feature); `contracts` checks declarations against the workflows they
bind to.

May import: `syntax`, `reference`, `model`, `checks`.
"""

from awl_lsp.workspace.contracts import ContractProblem, contract_problems
from awl_lsp.workspace.files import MAX_FILE_BYTES, awl_files, inside, read_document
from awl_lsp.workspace.index import WorkspaceIndex
from awl_lsp.workspace.resolution import Candidate, Resolution
from awl_lsp.workspace.summary import Contract, DocumentSummary, FlowParam, summarize

__all__ = [
    "MAX_FILE_BYTES",
    "Candidate",
    "Contract",
    "ContractProblem",
    "DocumentSummary",
    "FlowParam",
    "Resolution",
    "WorkspaceIndex",
    "awl_files",
    "contract_problems",
    "inside",
    "read_document",
    "summarize",
]
