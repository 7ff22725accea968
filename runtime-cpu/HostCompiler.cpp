#include "runtime-cpu/HostCompiler.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/DiskCache.h"
#include "core/Stopwatch.h"

extern char** environ;

namespace star::cpu {

namespace {

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool writeAll(const std::string& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  return static_cast<bool>(out.flush());
}

// Runs argv with its output (both streams) into `log`; the exit status, or -1 if it did not start.
int runTool(const std::vector<std::string>& argv, const std::string& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A private directory, removed with what is in it when this goes.
class TempDir {
 public:
  TempDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/star-cc-XXXXXX";
    if (::mkdtemp(pattern.data())) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace

HostCompiler::HostCompiler() {
  const char* cxx = std::getenv("STAR_CXX");
  compiler_ = cxx && *cxx ? cxx : "c++";
}

HostCompiler::~HostCompiler() {
  // The objects stay loaded: code of theirs may still be on a thread's stack at exit.
}

std::string HostCompiler::compilerIdentity(std::string& error) {
  if (!identity_.empty()) return identity_;
  TempDir dir;
  if (dir.path().empty()) {
    error = "cannot make a temporary directory";
    return "";
  }
  const std::string log = dir.path() + "/version";
  if (runTool({compiler_, "--version"}, log) != 0) {
    error = "no C++ compiler: '" + compiler_ + "' did not run (install g++ or set STAR_CXX)";
    return "";
  }
  const std::string text = readAll(log);
  identity_ = compiler_ + "|" + text.substr(0, text.find('\n'));
  return identity_;
}

std::string HostCompiler::build(const std::string& source, std::span<const EmbeddedFile> headers,
                                std::string& error) {
  TempDir dir;
  if (dir.path().empty()) {
    error = "cannot make a temporary directory";
    return "";
  }
  for (const EmbeddedFile& h : headers) {
    const std::string path = dir.path() + "/include/" + std::string(h.path);
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    if (!writeAll(path, h.text)) {
      error = "cannot write " + path;
      return "";
    }
  }
  const std::string src = dir.path() + "/compiled.cpp", out = dir.path() + "/compiled.so",
                    log = dir.path() + "/log";
  if (!writeAll(src, source)) {
    error = "cannot write " + src;
    return "";
  }
  const int rc = runTool({compiler_, "-std=c++20", "-O2", "-fPIC", "-shared", "-w", "-I",
                          dir.path() + "/include", "-o", out, src},
                         log);
  if (rc != 0) {
    std::string text = readAll(log);
    if (text.size() > 2000) text = text.substr(0, 2000) + "...";
    error = "the C++ compiler failed on the generated code:\n" + text;
    return "";
  }
  return readAll(out);
}

void* HostCompiler::compile(const std::string& source, std::span<const EmbeddedFile> headers,
                            const char* symbol, bool useCache, std::string& error) {
  const Stopwatch watch;
  const std::string identity = compilerIdentity(error);
  if (identity.empty()) return nullptr;
  std::uint64_t key = fnv1a(source, fnv1a(identity));
  for (const EmbeddedFile& h : headers) key = fnv1a(h.text, fnv1a(h.path, key));
  const std::string name = cacheEntryName("host", key, ".so");
  DiskCache cache(useCache ? cacheDirectory() : "");
  std::optional<std::string> object = cache.read(name);
  if (object) {
    ++stats_.hits;
  } else {
    ++stats_.misses;
    std::string built = build(source, headers, error);
    if (built.empty()) return nullptr;
    cache.write(name, built);
    object = std::move(built);
  }
  // dlopen needs a file: a private copy, unlinked once loaded.
  TempDir dir;
  const std::string path = dir.path() + "/" + name;
  if (dir.path().empty() || !writeAll(path, *object)) {
    error = "cannot write the compiled code to a temporary file";
    return nullptr;
  }
  void* library = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    error = std::string("cannot load the compiled code: ") + ::dlerror();
    return nullptr;
  }
  libraries_.push_back(library);
  void* entry = ::dlsym(library, symbol);
  if (!entry) error = std::string("the compiled code has no ") + symbol;
  stats_.seconds += watch.seconds();
  return entry;
}

}  // namespace star::cpu
