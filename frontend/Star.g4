// The Star language (docs/LANGUAGE.md is the reference; this grammar is its syntax).
// Keywords are case-insensitive; builtin names are ordinary identifiers resolved by the checker.
grammar Star;

// ---------------------------------------------------------------- program structure
program      : PROGRAM ident SEMI usesClause? declaration* compoundStmt DOT EOF ;
usesClause   : USES ident (COMMA ident)* SEMI ;
// A library module: `unit NAME; declarations end.` (stdlib/ holds them).
unitFile     : UNIT ident SEMI usesClause? declaration* END DOT EOF ;
// Pieces of `program` and `unitFile`, for the reader that parses a long file one declaration or
// statement at a time (frontend/parse/Parser.cpp): its memory then does not grow with the file.
programHead  : PROGRAM ident SEMI usesClause? ;
unitHead     : UNIT ident SEMI usesClause? ;
blockOpen    : BEGIN ;
stmtSep      : SEMI ;
blockClose   : END ;
fileClose    : END DOT EOF ;
// One REPL input: declarations and statements, no program header. Statements are separated by
// ';' (declarations end in their own ';'): were `x := 1 y := 2` allowed, a statement could be
// followed by the start of another, and `if c then if c then ...` would become ambiguous (empty
// then-part or not) and take the parser time cubic in the nesting depth to predict. Every choice
// is made by one token, as in stmtList: after a statement, ';' or the end. (Written as
// `(declaration | statement? SEMI)* statement? EOF`, the choice before a statement, ';' or the
// end after it, took a look-ahead through the whole statement: quadratic time and memory in the
// nesting of a pasted block.)
replInput    : (declaration | SEMI)* (statement (SEMI (declaration | SEMI)* statement?)*)? EOF ;
// A REPL input that is just an expression (its value is printed).
replExpr     : expr SEMI* EOF ;

declaration  : constSection | varSection | procDecl | funcDecl ;
constSection : CONST constDef+ ;
constDef     : ident EQ expr SEMI ;
varSection   : VAR varDef+ ;
varDef       : identList COLON typeSpec SEMI ;
identList    : ident (COMMA ident)* ;

typeSpec
  : INTEGER                                         # intType
  | BOOLEAN                                         # boolType
  | STRING                                          # stringType
  | REAL                                            # realType
  | SLICE (LPAREN expr RPAREN)?                     # sliceType
  | WORD (LPAREN expr RPAREN)?                      # wordType
  | TABLE (LPAREN expr COMMA expr RPAREN)?          # tableType
  ;

// `native 'name';` marks a library procedure that a backend may run as one fused computation;
// its body stays the reference (docs/STDLIB.md).
procDecl     : procHead compoundStmt SEMI ;
procHead     : PROC ident formalParams? SEMI nativeClause? localDecl* ;
nativeClause : NATIVE STRING_LIT SEMI ;
funcDecl     : funcHead compoundStmt SEMI ;
funcHead     : FUNC ident formalParams? COLON typeSpec SEMI localDecl* ;
localDecl    : constSection | varSection ;
formalParams : LPAREN (paramGroup (SEMI paramGroup)*)? RPAREN ;
paramGroup   : VAR? identList COLON typeSpec ;

// ---------------------------------------------------------------- statements
compoundStmt : BEGIN stmtList END ;
// Statements may be empty: `begin ; end`, a trailing `;` before `end`, `if c then else s`.
stmtList     : statement? (SEMI statement?)* ;
statement
  : designator ASSIGN expr                                  # assignStmt
  | designator                                              # callStmt
  | IF expr THEN thenS=statement? (ELSE elseS=statement?)?  # ifStmt
  | WHILE expr DO statement?                                # whileStmt
  | FOR ident ASSIGN from=expr dir=(TO | DOWNTO) to=expr DO statement? # forStmt
  | FORALL ident IN expr DO statement?                      # forallStmt
  | REPEAT stmtList UNTIL expr                              # repeatStmt
  | compoundStmt                                            # blockStmt
  | BREAK                                                   # breakStmt
  | CONTINUE                                                # continueStmt
  | EXIT                                                    # exitStmt
  ;

// A name, optionally applied to arguments: a variable, a call, COL(i, T), Y(i), ...
designator   : ident (LPAREN exprList? RPAREN)? ;
exprList     : expr (COMMA expr)* ;

// ---------------------------------------------------------------- expressions
// Pascal precedence, highest first: not / unary sign > * div mod and > + - or xor > relations.
expr
  : NOT expr                                        # notExpr
  | op=(MINUS | PLUS) expr                          # signExpr
  | expr op=(STAR | SLASH | DIV | MOD | AND) expr   # mulExpr
  | expr op=(PLUS | MINUS | OR | XOR) expr          # addExpr
  | expr op=(EQ | NE | LT | LE | GT | GE) expr      # relExpr
  | LPAREN expr RPAREN                              # parenExpr
  | designator                                      # nameExpr
  | INT_LIT                                         # intLit
  | REAL_LIT                                        # realLit
  | BITS_LIT                                        # bitsLit
  | STRING_LIT                                      # stringLit
  | (TRUE | FALSE)                                  # boolLit
  ;

// Builtin type names that may also be used as identifiers are not keywords; these are.
ident : IDENT ;

// ---------------------------------------------------------------- lexer
PROGRAM  : P R O G R A M ;
UNIT     : U N I T ;
USES     : U S E S ;
CONST    : C O N S T ;
VAR      : V A R ;
PROC     : P R O C | P R O C E D U R E ;
FUNC     : F U N C | F U N C T I O N ;
BEGIN    : B E G I N ;
END      : E N D ;
IF       : I F ;
THEN     : T H E N ;
ELSE     : E L S E ;
WHILE    : W H I L E ;
DO       : D O ;
FOR      : F O R ;
FORALL   : F O R A L L ;
IN       : I N ;
TO       : T O ;
DOWNTO   : D O W N T O ;
REPEAT   : R E P E A T ;
UNTIL    : U N T I L ;
BREAK    : B R E A K ;
CONTINUE : C O N T I N U E ;
EXIT     : E X I T ;
NATIVE   : N A T I V E ;
NOT      : N O T ;
AND      : A N D ;
OR       : O R ;
XOR      : X O R ;
DIV      : D I V ;
MOD      : M O D ;
TRUE     : T R U E ;
FALSE    : F A L S E ;
INTEGER  : I N T E G E R ;
BOOLEAN  : B O O L E A N ;
STRING   : S T R I N G ;
REAL     : R E A L ;
SLICE    : S L I C E ;
WORD     : W O R D ;
TABLE    : T A B L E ;

ASSIGN : ':=' ;
EQ     : '=' ;
NE     : '<>' ;
LE     : '<=' ;
GE     : '>=' ;
LT     : '<' ;
GT     : '>' ;
PLUS   : '+' ;
MINUS  : '-' ;
STAR   : '*' ;
SLASH  : '/' ;
LPAREN : '(' ;
RPAREN : ')' ;
COMMA  : ',' ;
SEMI   : ';' ;
COLON  : ':' ;
DOT    : '.' ;

IDENT      : [a-zA-Z_] [a-zA-Z0-9_]* ;
REAL_LIT   : [0-9]+ '.' [0-9]+ ([eE] [+-]? [0-9]+)? | [0-9]+ [eE] [+-]? [0-9]+ ;
INT_LIT    : [0-9]+ ;
BITS_LIT   : '%' [01]+ ;
STRING_LIT : '\'' ('\'\'' | ~['\r\n])* '\'' ;

BRACE_COMMENT : '{' .*? '}' -> skip ;
PAREN_COMMENT : '(*' .*? '*)' -> skip ;
C_COMMENT     : '/*' .*? '*/' -> skip ;
LINE_COMMENT  : '//' ~[\r\n]* -> skip ;
WS            : [ \t\r\n\f]+ -> skip ;

// Anything else is one bad character; the parser reports it where it stands.
BAD_CHAR : . ;

fragment A : [aA] ; fragment B : [bB] ; fragment C : [cC] ; fragment D : [dD] ;
fragment E : [eE] ; fragment F : [fF] ; fragment G : [gG] ; fragment H : [hH] ;
fragment I : [iI] ; fragment J : [jJ] ; fragment K : [kK] ; fragment L : [lL] ;
fragment M : [mM] ; fragment N : [nN] ; fragment O : [oO] ; fragment P : [pP] ;
fragment Q : [qQ] ; fragment R : [rR] ; fragment S : [sS] ; fragment T : [tT] ;
fragment U : [uU] ; fragment V : [vV] ; fragment W : [wW] ; fragment X : [xX] ;
fragment Y : [yY] ; fragment Z : [zZ] ;
