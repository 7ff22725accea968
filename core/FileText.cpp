#include "core/FileText.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/Interrupt.h"

namespace star {

namespace {

// A descriptor closed on every path out (standard input, "-", is borrowed, not closed).
class FileDescriptor {
 public:
  FileDescriptor(int fd, bool owned) : fd_(fd), owned_(owned) {}
  ~FileDescriptor() {
    if (owned_ && fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
  bool owned_;
};

bool interruptRequested() {
  return gInterruptRequested.load(std::memory_order_relaxed);
}

// A failed call that another signal (not Ctrl-C) cut short, or a non-blocking one that found
// nothing to do: make it again (after awaitReady, which looks at the flag).
bool retryable() {
  return (errno == EINTR || errno == EAGAIN) && !interruptRequested();
}

bool isFifo(const std::string& path) {
  struct stat s {};
  return ::stat(path.c_str(), &s) == 0 && S_ISFIFO(s.st_mode);
}

// A failed call's error: "interrupted" after Ctrl-C, else "cannot VERB: REASON".
std::string failure(const char* verb) {
  // EINTR, or EAGAIN that was not made again because Ctrl-C came (retryable).
  return errno == EINTR || errno == EAGAIN
             ? "interrupted"
             : std::string("cannot ") + verb + ": " + std::strerror(errno);
}

// Waits until `fd` is ready for `events` or Ctrl-C comes. A Ctrl-C that landed before a blocking
// read or write began would not cut it short (the signal is spent), so the wait wakes every 50 ms
// to look at the flag: a pipe whose other end never moves cannot hold the run. False: interrupted.
bool awaitReady(int fd, short events) {
  for (;;) {
    if (interruptRequested()) return false;
    struct pollfd p {
      fd, events, 0
    };
    const int n = ::poll(&p, 1, 50);
    if (n != 0 && !(n < 0 && errno == EINTR))
      return true;  // ready, hung up, or an error read/write reports
  }
}

// open(2) that Ctrl-C can stop without a signal's help. A FIFO with no partner would block in
// open until one comes, and only EINTR could end that wait -- but a library in the process may
// make the SIGINT handler restart what it interrupts (NVRTC 13.0 does: core/KeepSignalFlags.h),
// and then the blocked call restarts and the run hangs. So the file is opened without blocking: a
// FIFO opens for reading at once (the reads' awaitReady waits for a writer, looking at the flag
// every 50 ms), and one with no reader refuses to open for writing (ENXIO), which is tried again
// every 50 ms, as is an open that would block for another reason (EAGAIN: a lease being broken).
// A FIFO's descriptor stays non-blocking (every read and write waits in awaitReady first, and
// EAGAIN goes back there); any other file's blocks again, as it always did. `verb` names the use
// in errors.
int openInterruptibly(const std::string& path, int flags, const char* verb, std::string& error) {
  for (;;) {
    if (interruptRequested()) {
      error = "interrupted";
      return -1;
    }
    const int fd = ::open(path.c_str(), flags | O_CLOEXEC | O_NONBLOCK, 0666);
    if (fd >= 0) {
      struct stat s {};
      if (::fstat(fd, &s) == 0 && !S_ISFIFO(s.st_mode))
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
      return fd;
    }
    const int why = errno;
    if (why == EAGAIN || (why == ENXIO && isFifo(path))) {
      ::poll(nullptr, 0, 50);  // no reader yet, or the open would block
      continue;
    }
    errno = why;
    if (retryable()) continue;
    error = failure(verb);
    return -1;
  }
}

bool sameFile(const struct stat& a, const struct stat& b) {
  return a.st_size == b.st_size && a.st_mtim.tv_sec == b.st_mtim.tv_sec &&
         a.st_mtim.tv_nsec == b.st_mtim.tv_nsec && a.st_ino == b.st_ino && a.st_dev == b.st_dev;
}

}  // namespace

std::optional<std::string> readBoundedFile(const std::string& path, std::uint64_t maxBytes,
                                           std::string& error) {
  const bool standardInput = path == "-";
  const int raw = standardInput ? STDIN_FILENO : openInterruptibly(path, O_RDONLY, "read", error);
  if (raw < 0) return std::nullopt;
  FileDescriptor fd(raw, !standardInput);
  struct stat before {};
  if (::fstat(fd.get(), &before) != 0) {
    error = std::string("cannot read: ") + std::strerror(errno);
    return std::nullopt;
  }
  if (S_ISDIR(before.st_mode)) {
    error = "is a directory";
    return std::nullopt;
  }
  const bool regular = S_ISREG(before.st_mode);
  if (regular && static_cast<std::uint64_t>(before.st_size) > maxBytes) {
    error = "is larger than " + describeBytes(maxBytes);
    return std::nullopt;
  }
  std::string text;
  if (regular) text.reserve(static_cast<std::size_t>(before.st_size));
  char buffer[1 << 16];
  for (;;) {
    if (!awaitReady(fd.get(), POLLIN)) {
      error = "interrupted";
      return std::nullopt;
    }
    const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
    if (n == 0) break;
    if (n < 0) {
      if (retryable()) continue;
      error = failure("read");
      return std::nullopt;
    }
    if (interruptRequested()) {  // data kept coming: no EINTR
      error = "interrupted";
      return std::nullopt;
    }
    if (text.size() + static_cast<std::uint64_t>(n) > maxBytes) {
      error = "is larger than " + describeBytes(maxBytes);
      return std::nullopt;
    }
    text.append(buffer, static_cast<std::size_t>(n));
  }
  // A regular file must be read as one version of itself: one that grew, shrank or was rewritten
  // while it was read gives an error, never a mixture. (Files of /proc say 0 bytes and stay so:
  // their length is not compared.)
  if (regular && !standardInput) {
    struct stat after {};
    const bool sizeUnknown = before.st_size == 0;
    if (::fstat(fd.get(), &after) != 0 || !sameFile(before, after) ||
        (!sizeUnknown && text.size() != static_cast<std::uint64_t>(before.st_size))) {
      error = "changed while it was read (" + std::to_string(before.st_size) +
              " bytes when opened, " + std::to_string(text.size()) +
              " read); read it again once it is complete";
      return std::nullopt;
    }
  }
  return text;
}

bool writeFileText(const std::string& path, const std::string& text, std::string& error) {
  const int raw = openInterruptibly(path, O_WRONLY | O_CREAT | O_TRUNC, "write", error);
  if (raw < 0) return false;
  FileDescriptor fd(raw, true);
  std::size_t done = 0;
  while (done < text.size()) {
    if (!awaitReady(fd.get(), POLLOUT)) {
      error = "interrupted";
      return false;
    }
    const ssize_t n = ::write(fd.get(), text.data() + done, text.size() - done);
    if (n >= 0) {
      done += static_cast<std::size_t>(n);
      // A write cut short by Ctrl-C returns what it wrote, not EINTR: stop here, before writing on
      // (and, on a FIFO whose reader leaves, before dying of SIGPIPE).
      if (interruptRequested() && done < text.size()) {
        error = "interrupted";
        return false;
      }
      continue;
    }
    if (retryable()) continue;
    error = failure("write");
    return false;
  }
  return true;
}

std::string fileErrorMessage(const std::string& path, const std::string& error) {
  const std::string prefix = "cannot read: ";
  if (error.rfind(prefix, 0) == 0)
    return "cannot read " + path + ": " + error.substr(prefix.size());
  return path + " " + error;
}

std::string describeBytes(std::uint64_t bytes) {
  const char* units[] = {"bytes", "KB", "MB", "GB", "TB", "PB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 5) {
    v /= 1024;
    ++u;
  }
  char buf[48];
  if (u == 0)
    std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(bytes));
  else if (v == static_cast<double>(static_cast<std::uint64_t>(v)))
    std::snprintf(buf, sizeof buf, "%.0f %s", v, units[u]);
  else
    std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

}  // namespace star
