// core/FileText: a Ctrl-C that came before a blocking open, read or write still stops it. The
// signal is spent by then (nothing cuts the call short), so the calls must look at the flag.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <future>
#include <string>
#include <thread>

#include "core/FileText.h"
#include "core/Interrupt.h"

namespace star {
namespace {

class FileTextInterrupt : public ::testing::Test {
 protected:
  void SetUp() override {
    signal(SIGPIPE, SIG_IGN);  // unblocking a stuck writer below closes its reader
    char dir[] = "/tmp/star-file-text-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
    fifo_ = dir_ + "/fifo";
    ASSERT_EQ(mkfifo(fifo_.c_str(), 0600), 0);
    gInterruptRequested = true;  // Ctrl-C came before the call
  }
  void TearDown() override {
    gInterruptRequested = false;
    unlink(fifo_.c_str());
    rmdir(dir_.c_str());
  }
  // Runs `call`; if it is still blocked after 5 s, `unblock` frees it (a descriptor it returns
  // is held open until the call has returned) and the test fails.
  template <class Call, class Unblock>
  void expectStopsPromptly(Call call, Unblock unblock) {
    auto done = std::async(std::launch::async, call);
    if (done.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
      const int held = unblock();
      done.wait();
      if (held >= 0) close(held);
      FAIL() << "the call blocked although Ctrl-C had come before it";
    }
    EXPECT_EQ(done.get(), "interrupted");
  }
  std::string dir_, fifo_;
};

TEST_F(FileTextInterrupt, WriteToAPipeNobodyReadsStops) {
  const int reader = open(fifo_.c_str(), O_RDONLY | O_NONBLOCK);  // open, never read
  ASSERT_GE(reader, 0);
  const std::string text(1 << 22, 'x');  // far more than a pipe holds
  int fd = reader;
  expectStopsPromptly(
      [&] {
        std::string error;
        EXPECT_FALSE(writeFileText(fifo_, text, error));
        return error;
      },
      [&] { return close(fd), fd = -1; });
  if (fd >= 0) close(fd);
}

TEST_F(FileTextInterrupt, ReadFromAPipeNobodyWritesStops) {
  const int writer = open(fifo_.c_str(), O_RDWR);  // holds the FIFO open for writing, never writes
  ASSERT_GE(writer, 0);
  int fd = writer;
  expectStopsPromptly(
      [&] {
        std::string error;
        EXPECT_FALSE(readBoundedFile(fifo_, 1 << 20, error).has_value());
        return error;
      },
      [&] { return close(fd), fd = -1; });
  if (fd >= 0) close(fd);
}

TEST_F(FileTextInterrupt, OpenOfAFifoWithNoPartnerStops) {
  expectStopsPromptly(
      [&] {
        std::string error;
        EXPECT_FALSE(writeFileText(fifo_, "x", error));
        return error;
      },
      [&] { return open(fifo_.c_str(), O_RDONLY | O_NONBLOCK); });
}

// Ctrl-C while an open waits on a FIFO, with a SIGINT handler that restarts what it interrupts (as
// NVRTC leaves it): the open must still end, without the signal's EINTR.
class FileTextRestartingHandler : public FileTextInterrupt {
 protected:
  void SetUp() override {
    FileTextInterrupt::SetUp();
    gInterruptRequested = false;  // the Ctrl-C comes while the call waits
    struct sigaction sa {};
    sa.sa_handler = [](int) { gInterruptRequested = true; };
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, &old_);
  }
  void TearDown() override {
    sigaction(SIGINT, &old_, nullptr);
    FileTextInterrupt::TearDown();
  }
  // Runs `call` on a thread of its own, interrupts it there after 200 ms, and expects it to end
  // with "interrupted" within 5 s; `unblock` frees it otherwise (as expectStopsPromptly's).
  template <class Call, class Unblock>
  void expectInterruptedWhileWaiting(Call call, Unblock unblock) {
    std::promise<pthread_t> started;
    auto thread = started.get_future();
    auto done = std::async(std::launch::async, [&] {
      started.set_value(pthread_self());
      return call();
    });
    const pthread_t worker = thread.get();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    pthread_kill(worker, SIGINT);
    if (done.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
      const int held = unblock();
      done.wait();
      if (held >= 0) close(held);
      FAIL() << "the call went on waiting after Ctrl-C";
    }
    EXPECT_EQ(done.get(), "interrupted");
  }
  struct sigaction old_ {};
};

TEST_F(FileTextRestartingHandler, OpenForWritingWithNoReaderStops) {
  expectInterruptedWhileWaiting(
      [&] {
        std::string error;
        EXPECT_FALSE(writeFileText(fifo_, "x", error));
        return error;
      },
      [&] { return open(fifo_.c_str(), O_RDONLY | O_NONBLOCK); });
}

TEST_F(FileTextRestartingHandler, OpenForReadingWithNoWriterStops) {
  expectInterruptedWhileWaiting(
      [&] {
        std::string error;
        EXPECT_FALSE(readBoundedFile(fifo_, 1 << 20, error).has_value());
        return error;
      },
      [&] { return close(open(fifo_.c_str(), O_WRONLY | O_NONBLOCK)), -1; });
}

TEST_F(FileTextRestartingHandler, WriteBlockedOnAFullPipeStops) {
  int reader = open(fifo_.c_str(), O_RDONLY | O_NONBLOCK);  // open, never read
  ASSERT_GE(reader, 0);
  const std::string text(1 << 22, 'x');  // far more than a pipe holds
  expectInterruptedWhileWaiting(
      [&] {
        std::string error;
        EXPECT_FALSE(writeFileText(fifo_, text, error));
        return error;
      },
      [&] { return close(reader), reader = -1; });
  if (reader >= 0) close(reader);
}

// Opens `fifo` for writing once a reader has it open, giving up after 5 s (-1).
int openWriterWithin5s(const std::string& fifo) {
  for (int tries = 0; tries < 500; ++tries) {
    const int fd = open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) {
      fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
      return fd;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return -1;
}

// A FIFO still reads in full when its writer comes after the open and writes in pieces.
TEST(FileText, ReadsAFifoWhoseWriterComesLater) {
  char dir[] = "/tmp/star-file-text-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string fifo = std::string(dir) + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  auto writer = std::async(std::launch::async, [&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const int fd = openWriterWithin5s(fifo);
    if (fd < 0) return;
    for (const char* piece : {"01\n", "10\n"}) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      EXPECT_EQ(write(fd, piece, 3), 3);
    }
    close(fd);
  });
  std::string error;
  const auto text = readBoundedFile(fifo, 100, error);
  writer.wait();
  ASSERT_TRUE(text.has_value()) << error;
  EXPECT_EQ(*text, "01\n10\n");
  unlink(fifo.c_str());
  rmdir(dir);
}

// A write larger than a pipe holds, to a FIFO whose reader takes its time: every byte arrives, in
// order (the descriptor is non-blocking: partial writes and EAGAIN wait in poll).
TEST(FileText, WritesAFifoInFullToASlowReader) {
  signal(SIGPIPE, SIG_IGN);
  char dir[] = "/tmp/star-file-text-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string fifo = std::string(dir) + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::string text(1 << 22, '\0');
  for (std::size_t i = 0; i < text.size(); ++i) text[i] = static_cast<char>('a' + i % 23);
  const int reader = open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  auto received = std::async(std::launch::async, [&] {
    std::string got;
    char buffer[1 << 16];
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      struct pollfd p {
        reader, POLLIN, 0
      };
      if (poll(&p, 1, 100) <= 0) continue;
      const ssize_t n = read(reader, buffer, sizeof buffer);
      if (n == 0) break;  // the writer is done
      if (n > 0) got.append(buffer, static_cast<std::size_t>(n));
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    return got;
  });
  std::string error;
  EXPECT_TRUE(writeFileText(fifo, text, error)) << error;
  const std::string got = received.get();
  close(reader);
  EXPECT_EQ(got.size(), text.size());
  EXPECT_TRUE(got == text);
  unlink(fifo.c_str());
  rmdir(dir);
}

TEST(FileText, WritesAndReadsBackWithoutAnInterrupt) {
  char dir[] = "/tmp/star-file-text-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string path = std::string(dir) + "/t.txt";
  std::string error;
  ASSERT_TRUE(writeFileText(path, "01\n10\n", error)) << error;
  auto text = readBoundedFile(path, 100, error);
  ASSERT_TRUE(text.has_value()) << error;
  EXPECT_EQ(*text, "01\n10\n");
  EXPECT_FALSE(readBoundedFile(path, 3, error).has_value());
  EXPECT_EQ(error, "is larger than 3 bytes");
  unlink(path.c_str());
  rmdir(dir);
}

}  // namespace
}  // namespace star
