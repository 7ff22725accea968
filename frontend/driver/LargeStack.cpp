#include "frontend/driver/LargeStack.h"

#include <pthread.h>

namespace star {
namespace {

struct Job {
  const std::function<int()>* body;
  int result = 1;
};

void* trampoline(void* arg) {
  auto* job = static_cast<Job*>(arg);
  job->result = (*job->body)();
  return nullptr;
}

}  // namespace

int runWithLargeStack(const std::function<int()>& body) {
  constexpr std::size_t kStack = std::size_t{1} << 30;  // reserved, not committed
  Job job{&body};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kStack);
  pthread_t thread;
  if (pthread_create(&thread, &attr, trampoline, &job) != 0) {
    pthread_attr_destroy(&attr);
    return body();  // could not get a big stack: run here
  }
  pthread_attr_destroy(&attr);
  pthread_join(thread, nullptr);
  return job.result;
}

}  // namespace star
