// `star lsp [--stdio] [--stdlib-path=DIR]... [-Wno-unused]`: the language server on standard
// input and output (docs/CLI.md, "The language server").
#pragma once

namespace star {

// The arguments after `lsp`. Returns the exit status.
int commandLsp(int argc, char** argv);

}  // namespace star
