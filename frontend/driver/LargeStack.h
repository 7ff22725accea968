// Runs a function on a thread with a large stack, so that deeply nested programs (10,000 levels)
// are limited by the parser's depth check and not by the 8 MB default stack.
#pragma once

#include <functional>

namespace star {

int runWithLargeStack(const std::function<int()>& body);

}  // namespace star
