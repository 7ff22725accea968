// Reading whole files from untrusted paths, bounded: a directory, a device that never ends
// (/dev/zero) or a file larger than the caller allows gives an error message, never an endless
// read. "-" reads standard input. Pipes and process substitutions (/dev/stdin, <(...)) are read
// once, in full, so that callers can look at the contents as often as they like. A regular file
// that changes while it is read is an error (never a mixture of two versions), and Ctrl-C stops a
// read or an open that waits (a FIFO with no writer) with the error "interrupted".
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace star {

// The contents of `path`, or nullopt with `error` set ("is a directory", "cannot read: No such
// file or directory", "is larger than 256 MB", "changed while it was read (...)", "interrupted").
std::optional<std::string> readBoundedFile(const std::string& path, std::uint64_t maxBytes,
                                           std::string& error);

// Writes `text` to `path` (created or truncated); false with `error` set ("cannot write: No space
// left on device", "interrupted"). Ctrl-C stops an open or a write that waits, as for reading.
bool writeFileText(const std::string& path, const std::string& text, std::string& error);

// readBoundedFile's error as a sentence about `path`: "cannot read P: No such file or
// directory", "P is a directory", "P is larger than 256 MB".
std::string fileErrorMessage(const std::string& path, const std::string& error);

// "1.5 GB", "300 MB", "12 KB": a size for messages.
std::string describeBytes(std::uint64_t bytes);

}  // namespace star
