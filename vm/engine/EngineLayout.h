// The device engine's data, as the host packs it and the engine (on a GPU, or on host threads for
// testing) reads it: plain structs without pointers to host objects, the same on both sides.
//
// The engine runs the interpreter's own state: the register stack, the frames, the handles owned
// by frames, the pools of released handles, the globals and every handle's shape. Each block of
// the engine keeps its own copy of that state (the "block region"), interprets the instruction
// stream with one thread (the block's leader) and joins its other threads, and the other blocks',
// for the data-parallel part of slice, word and table primitives. Everything in a region is
// decided identically in every block, so the copies never diverge; only the bits of the values
// are shared.
#pragma once

#include <cstdint>

#include "core/HostDevice.h"
#include "vm/bytecode/Opcodes.h"

namespace star::engine {

using Word = std::uint64_t;

// Why the engine stopped. Except for a run that merely ended its launch, the host then executes
// the instruction at the stop position itself, with the host interpreter's semantics, and hands
// the run back afterwards. The reasons are reported by --stats.
enum class StopReason : std::uint32_t {
  None = 0,
  Output,   // WRITE, WRITELN
  Text,     // strings: PSTR, STOI, STOF, SLEN, SCHAR, STOW, WTOS; SEQ/SNE of a value that is no known string
  File,     // LOAD, SAVE, LOADGRAPH, LOADEDGES, LOADNUM, SAVENUM, SAVEPNG
  Native,   // a native procedure without a device entry
  Error,    // the instruction fails: the host reports the error, as it would have
  Storage,  // a value must grow beyond the room it has
  Pools,    // a call finds the handle pools exhausted: the host grows them (growing them for any
            // other stop would only add handles)
  Room,     // a call finds the room the engine was given for its stack, frames or owned handles
            // used up: the host makes the call, and the next hand-over gives more
  Loop,     // a parallel loop the engine leaves to the host's executor
  Math,     // EXP, LN, SIN, COS, ARCTAN, POWER: the host's libm, for identical output
  Poll,     // an interrupt (Ctrl-C), or the run's budget
  End,      // HALT, or the return from the entry function
  Other,    // an instruction form the engine leaves to the host (aliased TRIM/REP operands)
  Count_
};
inline constexpr int kStopReasons = static_cast<int>(StopReason::Count_);

// Interpreter::Frame, packed.
struct Frame {
  std::uint32_t function;
  std::uint32_t pc;  // where the caller goes on (saved on CALL)
  std::uint32_t resultDst;
  std::uint32_t unused;
  std::uint64_t base;
  std::uint64_t ownedBegin;
};

struct Owned {
  std::uint32_t handle;
  std::uint32_t kind;  // SlotKind::Bits or SlotKind::Table
};

// A handle's value: its storage (device memory on a GPU), its shape, and how much may be used
// without the host allocating. A bit vector has cols == 1.
struct Shape {
  Word* data;
  std::uint64_t rows;
  std::uint64_t cols;
  std::uint64_t capacity;  // words at data
  std::uint32_t kind;      // 0 free, 1 bit vector, 2 table (HandleKind)
  std::uint32_t fixed;     // the shape is fixed by a declaration
};

// A copy the leader leaves for the whole team (by-value parameters, a function's bit-vector
// result): dst's shape is already src's.
struct CopyJob {
  std::uint32_t dst;
  std::uint32_t src;
};
inline constexpr std::uint32_t kMaxCopyJobs = 16;

// Words of each bit vector an owned loop of compiled code keeps in each thread's locals (word
// rank + j * size of the team, j < kOwnedWords; vm/engine/EngineCompiled.h): a vector of more
// words than the team keeps runs its loops through memory. A backend sizes compiled code's team
// for this many words a thread.
inline constexpr int kOwnedWords = 4;
// Threads of a block of compiled code at most: a thread's kept words, the function's registers
// and the scalar code's temporaries fit in registers (255 a thread at this block size; at 1024,
// 64, and they spilled to local memory).
inline constexpr unsigned kCompiledMaxThreads = 256;

// Flags of Header::flags.
inline constexpr std::uint32_t kFlagNatives = 1;        // native procedures may run
inline constexpr std::uint32_t kFlagParallelLoops = 2;  // PFOR runs loops in parallel
inline constexpr std::uint32_t kFlagStats = 4;          // count instructions per opcode
// The run may reach a parallel loop the engine runs itself (EngineLoops.h, reachesEngineLoops):
// only then does a backend size the team for whole tables.
inline constexpr std::uint32_t kFlagEngineLoopsReachable = 8;

struct Header {
  // Where the run is: the instruction to execute next (at a stop: the one the host executes).
  std::uint32_t function;
  std::uint32_t pc;
  std::uint64_t base;
  // Entries in use.
  std::uint64_t stackSize, frames, owned, freeBits, freeTables;
  // Entries the region has room for (fixed for a launch).
  std::uint64_t stackCap, framesCap, ownedCap, poolCap, handles, globals;
  // Limits and environment.
  std::uint64_t budgetLeft;   // Interpreter::budgetLeft_ (0: no budget)
  std::uint64_t maxStack;     // registers the stack may hold (half the memory limit)
  std::uint64_t maxFrames;    // nested calls
  std::uint64_t argCount;     // program arguments
  std::uint64_t stringCount;  // strings interned so far: smaller values are known strings
  std::uint32_t flags;
  std::uint32_t stop;  // StopReason
  // Counters of the launch.
  std::uint64_t instructions;
  std::uint64_t pollsToCheck;  // backward jumps and calls until the next interrupt check
  std::uint64_t jobs;          // pending CopyJobs
  std::uint64_t loopsRun;      // parallel loops the engine ran itself, and their iterations
  std::uint64_t loopIterations;  // (counted with kFlagStats only)
  std::uint64_t ownedLoops;      // owned loops compiled code ran on kept words (kFlagStats only)
};
static_assert(sizeof(Header) % 8 == 0);

// Polls between two looks at the host's interrupt flag (a look costs a team-wide agreement).
inline constexpr std::uint64_t kPollsPerCheck = 4096;

inline constexpr std::uint32_t kOpCounters = 128;  // >= kOpCount

// The op word of the engine's code (EngineProgramImage::code): the opcode in the low 8 bits and,
// set when the program is loaded, what the engine's loop asks of every instruction — its operand
// count, whether the team runs it (isTeamOp), whether the leader reads bits with it
// (leaderReadsBits) — so that a lone interpreting thread decodes them with no table lookup.
inline constexpr std::uint32_t kOpcodeMask = 0xFF, kOperandCountShift = 8, kOperandCountMask = 7,
                               kTeamFlag = 1u << 11, kReadsBitsFlag = 1u << 12;
static_assert(kOpCount <= kOpcodeMask + 1);
constexpr std::uint32_t engineOpWord(Op op) {
  return static_cast<std::uint32_t>(op) | (operandCount(op) << kOperandCountShift) |
         (isTeamOp(op) ? kTeamFlag : 0) | (leaderReadsBits(op) ? kReadsBitsFlag : 0);
}

// Offsets (in words) of a block region's arrays; a region is the Header, then these.
struct Layout {
  std::uint64_t stack, frames, owned, freeBits, freeTables, shapes, globals, jobs, opCounts, total;
};

STAR_HD constexpr std::uint64_t wordsFor(std::uint64_t bytes) { return (bytes + 7) / 8; }

STAR_HD Layout layoutOf(const Header& h) {
  Layout l{};
  std::uint64_t at = wordsFor(sizeof(Header));
  l.stack = at;
  at += h.stackCap;
  l.frames = at;
  at += wordsFor(h.framesCap * sizeof(Frame));
  l.owned = at;
  at += wordsFor(h.ownedCap * sizeof(Owned));
  l.freeBits = at;
  at += wordsFor(h.poolCap * sizeof(std::uint32_t));
  l.freeTables = at;
  at += wordsFor(h.poolCap * sizeof(std::uint32_t));
  l.shapes = at;
  at += wordsFor(h.handles * sizeof(Shape));
  l.globals = at;
  at += h.globals;
  l.jobs = at;
  at += wordsFor(kMaxCopyJobs * sizeof(CopyJob));
  l.opCounts = at;
  at += kOpCounters;
  l.total = at;
  return l;
}

// A block region seen through its arrays.
struct Region {
  Header* h;
  Word* stack;
  Frame* frames;
  Owned* owned;
  std::uint32_t* freeBits;
  std::uint32_t* freeTables;
  Shape* shapes;
  Word* globals;
  CopyJob* jobs;
  std::uint64_t* opCounts;
};

STAR_HD Region regionAt(Word* base, const Layout& l) {
  Region r;
  r.h = reinterpret_cast<Header*>(base);
  r.stack = base + l.stack;
  r.frames = reinterpret_cast<Frame*>(base + l.frames);
  r.owned = reinterpret_cast<Owned*>(base + l.owned);
  r.freeBits = reinterpret_cast<std::uint32_t*>(base + l.freeBits);
  r.freeTables = reinterpret_cast<std::uint32_t*>(base + l.freeTables);
  r.shapes = reinterpret_cast<Shape*>(base + l.shapes);
  r.globals = base + l.globals;
  r.jobs = reinterpret_cast<CopyJob*>(base + l.jobs);
  r.opCounts = base + l.opCounts;
  return r;
}

// The program, flattened (Module's functions, constants and code) into arrays the engine reads.
struct FunctionInfo {
  std::uint32_t code;  // offset into Program::code
  std::uint32_t codeSize;
  std::uint32_t numRegs;
  std::uint32_t params;  // offset into Program::params
  std::uint32_t nParams;
  std::uint32_t owned;  // offset into Program::ownedRegs
  std::uint32_t nOwned;
  std::int32_t resultReg;
  std::uint32_t resultKind;  // SlotKind
  std::int32_t nativeId;
  std::uint32_t loops;  // offset into Program::loops (one entry per Function::parallelLoops)
  std::uint32_t nLoops;
};

struct ParamInfo {
  std::uint32_t kind;  // SlotKind
  std::uint32_t byRef;
};

struct OwnedReg {
  std::uint32_t reg;
  std::uint32_t kind;
};

// A parallel loop as the engine sees it. The engine runs one kind of body itself, the papers'
// column (or row) update `v := COL(i, T); v := v op x; COL(i, T) := v` with x the same in every
// iteration (vm/interp/EngineLoops.cpp decides, from the body the
// VM proved independent); it hands every other parallel loop to the host's executor.
inline constexpr std::uint32_t kLoopHost = 0, kLoopColumns = 1, kLoopRows = 2;
struct LoopInfo {
  std::uint32_t kind;  // kLoopHost, kLoopColumns, kLoopRows
  std::uint32_t form;  // LoopForm (vm/bytecode/Module.h)
  std::uint32_t selector, index, first, last;  // the ParallelLoop's registers (operand encoding)
  std::uint32_t table, update, temp;           // T, x and v of the update
  std::uint32_t op;                            // Op::BAND, BOR or BXOR
  std::uint32_t exit;                          // where the run goes on after the loop
  std::uint32_t indexLiveOut;                  // the loop variable is read after the loop
  std::uint32_t tempLiveOut;                   // v is read after the loop
  std::uint32_t unused;
};

struct Program {
  const std::uint32_t* code = nullptr;
  const FunctionInfo* functions = nullptr;
  std::uint32_t nFunctions = 0;
  const ParamInfo* params = nullptr;
  const OwnedReg* ownedRegs = nullptr;
  const Word* constValue = nullptr;       // per constant: integer, real's bits, or string index
  const std::uint64_t* constBits = nullptr;  // per constant: offset into constWords (words)
  const std::uint64_t* constLength = nullptr;  // per constant: length in bits (bit constants)
  const Word* constWords = nullptr;
  const LoopInfo* loops = nullptr;
};

}  // namespace star::engine
