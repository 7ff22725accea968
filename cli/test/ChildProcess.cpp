#include "cli/test/ChildProcess.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace star::test {
namespace {

constexpr std::uint64_t kMaxCaptured = std::uint64_t{64} << 20;

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

std::string readBack(int fd) {
  std::string text;
  if (lseek(fd, 0, SEEK_SET) != 0) return text;
  char buf[65536];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) break;
    std::size_t room = kMaxCaptured - text.size();
    text.append(buf, std::min(static_cast<std::size_t>(n), room));
    if (text.size() >= kMaxCaptured) break;
  }
  return text;
}

}  // namespace

ChildResult runChild(const std::vector<std::string>& argv, const std::string& dir,
                     double timeoutSeconds) {
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
    std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - started;
    if (timeoutSeconds > 0 && elapsed.count() > timeoutSeconds) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      r.timedOut = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(elapsed.count() < 1 ? 1 : 10));
  }
  if (WIFEXITED(status))
    r.status = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    r.status = 128 + WTERMSIG(status);
  r.out = readBack(out);
  r.err = readBack(err);
  close(out);
  close(err);
  if (!r.timedOut && r.status == 126 && r.err.empty())
    r.failure = "cannot enter the directory " + dir;
  else if (!r.timedOut && r.status == 127 && r.err.empty())
    r.failure = "cannot run " + argv[0];
  return r;
}

}  // namespace star::test
