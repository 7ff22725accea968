" Star: comments for gq, the commentary plugins and `gcc`.
if exists("b:did_ftplugin")
  finish
endif
let b:did_ftplugin = 1

setlocal commentstring=//\ %s
setlocal comments=://
let b:undo_ftplugin = "setlocal commentstring< comments<"
