" Star sources are *.star. Vim's own filetype.vim sends *.star to starlark; `set filetype`
" (not `setfiletype`) overrules that.
autocmd BufRead,BufNewFile *.star set filetype=star
