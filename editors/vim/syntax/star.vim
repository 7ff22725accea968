" Vim syntax file
" Language:    Star (the language of the STAR-machine associative processor)
" Filenames:   *.star
" Reference:   docs/LANGUAGE.md section 1; frontend/Star.g4 is the lexer.
" Maintained with editors/vscode/syntaxes/star.tmLanguage.json; tests/editors/check_grammar.py
" checks that both know every keyword of the lexer and every builtin of Builtins.def.

if exists("b:current_syntax")
  finish
endif

let s:cpo_save = &cpo
set cpo&vim

" Keywords, identifiers and builtin names are case-insensitive.
syntax case ignore

" ---------------------------------------------------------------- keywords
syn keyword starProgram      program unit
syn keyword starInclude      uses
syn keyword starStorage      const var native
syn keyword starFuncKeyword  proc procedure func function nextgroup=starFuncName skipwhite
syn match   starFuncName     "\h\w*" contained
syn keyword starConditional  if then else
syn keyword starRepeat       while do for to downto repeat until forall in
syn keyword starControl      break continue exit
syn keyword starBlock        begin end
syn keyword starOperatorWord not and or xor div mod
syn keyword starBoolean      true false
syn keyword starType         integer boolean string real slice word table

" ---------------------------------------------------------------- builtins (Builtins.def)
syn keyword starBuiltin SET CLR FND STEP NUMB FRST SOME ZERO CONVERT LEN TRIM REP
syn keyword starBuiltin EQ NOTEQ LESS LESSEQ GREAT GREATEQ ADD SUBT BIN VAL SVAL SBIN FVAL FBIN
syn keyword starBuiltin SQRT EXP LN SIN COS ARCTAN ABS TRUNC ROUND POWER
syn keyword starBuiltin COL ROW ROWS COLS LOAD SAVE LOADGRAPH LOADEDGES LOADNUM SAVENUM SAVEPNG
syn keyword starBuiltin WRITE WRITELN PARAMCOUNT PARAMSTR STRTOINT STRTOREAL ERROR
syn keyword starBuiltin LENGTH CHARAT STRTOWORD WORDTOSTR

" ---------------------------------------------------------------- literals
" Later definitions win at the same column: a real beats the integer that starts it.
syn match   starInteger      "\<\d\+"
syn match   starReal         "\<\d\+\.\d\+\%([eE][+-]\=\d\+\)\="
syn match   starReal         "\<\d\+[eE][+-]\=\d\+"
" %1011 is a word; a % without binary digits is an error.
syn match   starWordError    "%"
syn match   starWordLiteral  "%[01]\+"
" '...' on one line; '' inside is one quote.
syn region  starString       start=+'+ skip=+''+ end=+'+ end=+$+ oneline contains=starQuote
syn match   starQuote        "''" contained

" ---------------------------------------------------------------- operators
syn match   starOperator     ":=\|<>\|<=\|>=\|[=<>+\-*/]"

" ---------------------------------------------------------------- comments (none nests)
syn keyword starTodo         TODO FIXME XXX contained
syn region  starComment      start="{"    end="}"    contains=starTodo,@Spell
syn region  starComment      start="(\*"  end="\*)"  contains=starTodo,@Spell
syn region  starComment      start="/\*"  end="\*/"  contains=starTodo,@Spell
syn match   starLineComment  "//.*$"                 contains=starTodo,@Spell

syn sync fromstart

" ---------------------------------------------------------------- links
hi def link starProgram      Statement
hi def link starInclude      Include
hi def link starStorage      StorageClass
hi def link starFuncKeyword  Keyword
hi def link starFuncName     Function
hi def link starConditional  Conditional
hi def link starRepeat       Repeat
hi def link starControl      Statement
hi def link starBlock        Keyword
hi def link starOperatorWord Operator
hi def link starBoolean      Boolean
hi def link starType         Type
hi def link starBuiltin      Function
hi def link starInteger      Number
hi def link starReal         Float
hi def link starWordLiteral  Number
hi def link starWordError    Error
hi def link starString       String
hi def link starQuote        SpecialChar
hi def link starOperator     Operator
hi def link starTodo         Todo
hi def link starComment      Comment
hi def link starLineComment  Comment

let b:current_syntax = "star"

let &cpo = s:cpo_save
unlet s:cpo_save
