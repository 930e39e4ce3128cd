-- *.awl files are AWL workflow documents.
vim.filetype.add({ extension = { awl = "awl" } })
