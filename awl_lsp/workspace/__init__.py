"""The workspace: every `.awl` document under the workspace folders, summarised so that documents
can be checked against each other (a `detached` or `child` declaration against the workflow of that
name) and navigated across (definition, references, rename, symbols).

`files` finds documents safely (never outside the folders, bounded in size); `summary` reads what
one document offers and expects of others; `index` keeps the summaries current; `contracts` checks
declarations against the workflows they name.
"""

from awl_lsp.workspace.contracts import ContractProblem, contract_problems
from awl_lsp.workspace.files import MAX_FILE_BYTES, awl_files, inside, read_document
from awl_lsp.workspace.index import WorkspaceIndex
from awl_lsp.workspace.summary import Contract, DocumentSummary, FlowParam, summarize

__all__ = [
    "MAX_FILE_BYTES",
    "Contract",
    "ContractProblem",
    "DocumentSummary",
    "FlowParam",
    "WorkspaceIndex",
    "awl_files",
    "contract_problems",
    "inside",
    "read_document",
    "summarize",
]
