// core/FileText: a Ctrl-C that came before a blocking open, read or write still stops it. The
// signal is spent by then (nothing cuts the call short), so the calls must look at the flag.
#include <fcntl.h>
#include <gtest/gtest.h>
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
  // Runs `call`; if it is still blocked after 5 s, `unblock` frees it and the test fails.
  template <class Call, class Unblock>
  void expectStopsPromptly(Call call, Unblock unblock) {
    auto done = std::async(std::launch::async, call);
    if (done.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
      unblock();
      done.wait();
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
      [&] { close(fd), fd = -1; });
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
      [&] { close(fd), fd = -1; });
  if (fd >= 0) close(fd);
}

TEST_F(FileTextInterrupt, OpenOfAFifoWithNoPartnerStops) {
  expectStopsPromptly(
      [&] {
        std::string error;
        EXPECT_FALSE(writeFileText(fifo_, "x", error));
        return error;
      },
      [&] { close(open(fifo_.c_str(), O_RDONLY | O_NONBLOCK)); });
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
  // with "interrupted" within 5 s; `unblock` frees it otherwise.
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
      unblock();
      done.wait();
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
      [&] { close(open(fifo_.c_str(), O_RDONLY | O_NONBLOCK)); });
}

TEST_F(FileTextRestartingHandler, OpenForReadingWithNoWriterStops) {
  expectInterruptedWhileWaiting(
      [&] {
        std::string error;
        EXPECT_FALSE(readBoundedFile(fifo_, 1 << 20, error).has_value());
        return error;
      },
      [&] { close(open(fifo_.c_str(), O_WRONLY | O_NONBLOCK)); });
}

// A FIFO still reads in full when its writer comes after the open and writes in pieces.
TEST(FileText, ReadsAFifoWhoseWriterComesLater) {
  char dir[] = "/tmp/star-file-text-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string fifo = std::string(dir) + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  auto writer = std::async(std::launch::async, [&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const int fd = open(fifo.c_str(), O_WRONLY);
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
