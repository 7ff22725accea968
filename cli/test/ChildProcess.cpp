#include "cli/test/ChildProcess.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace star::test {
namespace {

volatile std::sig_atomic_t gStopSignal = 0;
constexpr int kStopSignals[] = {SIGINT, SIGTERM};
struct sigaction gPrevious[std::size(kStopSignals)];

// The first signal asks the run to stop (runChild polls the flag); a second one, should star test
// be stuck elsewhere, ends it at once.
extern "C" void onStopSignal(int signal) {
  if (gStopSignal) {
    struct sigaction sa {};
    sa.sa_handler = SIG_DFL;
    sigaction(signal, &sa, nullptr);
    raise(signal);
    return;
  }
  gStopSignal = signal;
}

// An unlinked temporary file: its descriptor, or -1.
int scratchFile() {
  const char* base = std::getenv("TMPDIR");
  std::string templ = std::string(base && *base ? base : "/tmp") + "/star-test-XXXXXX";
  std::vector<char> name(templ.begin(), templ.end());
  name.push_back('\0');
  int fd = mkstemp(name.data());
  if (fd >= 0) unlink(name.data());
  return fd;
}

// The first `maxBytes` of what the child wrote to `fd`; `*total`: all it wrote.
std::string readBack(int fd, std::uint64_t maxBytes, std::uint64_t* total) {
  std::string text;
  struct stat st {};
  *total = fstat(fd, &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
  if (lseek(fd, 0, SEEK_SET) != 0) return text;
  char buf[65536];
  while (text.size() < maxBytes) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    std::size_t room = static_cast<std::size_t>(maxBytes - text.size());
    text.append(buf, std::min(static_cast<std::size_t>(n), room));
  }
  *total = std::max<std::uint64_t>(*total, text.size());
  return text;
}

// Kills the child and reaps it.
void killChild(pid_t pid, int* status) {
  kill(pid, SIGKILL);
  while (waitpid(pid, status, 0) < 0 && errno == EINTR) {
  }
}

}  // namespace

StopSignals::StopSignals() {
  gStopSignal = 0;
  for (std::size_t i = 0; i < std::size(kStopSignals); ++i) {
    sigaction(kStopSignals[i], nullptr, &gPrevious[i]);
    if (gPrevious[i].sa_handler == SIG_IGN) continue;
    struct sigaction sa {};
    sa.sa_handler = onStopSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;  // no SA_RESTART: a blocking read returns EINTR
    sigaction(kStopSignals[i], &sa, nullptr);
  }
}

StopSignals::~StopSignals() {
  for (std::size_t i = 0; i < std::size(kStopSignals); ++i)
    sigaction(kStopSignals[i], &gPrevious[i], nullptr);
}

int StopSignals::received() {
  return gStopSignal;
}

ChildResult runChild(const std::vector<std::string>& argv, const std::string& dir,
                     double timeoutSeconds, std::uint64_t maxCaptured) {
  ChildResult r;
  int out = scratchFile(), err = scratchFile();
  if (out < 0 || err < 0) {
    r.failure = std::string("cannot create a temporary file: ") + std::strerror(errno);
    if (out >= 0) close(out);
    if (err >= 0) close(err);
    return r;
  }
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    r.failure = std::string("cannot start a process: ") + std::strerror(errno);
    close(out);
    close(err);
    return r;
  }
  if (pid == 0) {
    int in = open("/dev/null", O_RDONLY);
    if (in >= 0) dup2(in, STDIN_FILENO);
    dup2(out, STDOUT_FILENO);
    dup2(err, STDERR_FILENO);
    if (chdir(dir.c_str()) != 0) _exit(126);
    execv(args[0], args.data());
    _exit(127);
  }
  auto started = std::chrono::steady_clock::now();
  int status = 0;
  for (;;) {
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) break;
    if (gStopSignal) {
      killChild(pid, &status);
      r.interrupted = true;
      break;
    }
    std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - started;
    if (timeoutSeconds > 0 && elapsed.count() > timeoutSeconds) {
      killChild(pid, &status);
      r.timedOut = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(elapsed.count() < 1 ? 1 : 10));
  }
  if (WIFEXITED(status))
    r.status = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    r.status = 128 + WTERMSIG(status);
  r.out = readBack(out, maxCaptured, &r.outBytes);
  r.err = readBack(err, maxCaptured, &r.errBytes);
  close(out);
  close(err);
  if (r.timedOut || r.interrupted) return r;
  if (r.status == 126 && r.err.empty())
    r.failure = "cannot enter the directory " + dir;
  else if (r.status == 127 && r.err.empty())
    r.failure = "cannot run " + argv[0];
  return r;
}

}  // namespace star::test
