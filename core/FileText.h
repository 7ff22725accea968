// Reading whole files from untrusted paths, bounded: a directory, a device that never ends
// (/dev/zero) or a file larger than the caller allows gives an error message, never an endless
// read. "-" reads standard input. Pipes and process substitutions (/dev/stdin, <(...)) are read
// once, in full, so that callers can look at the contents as often as they like.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace star {

// The contents of `path`, or nullopt with `error` set ("is a directory", "cannot read: No such
// file or directory", "is larger than 256 MB").
std::optional<std::string> readBoundedFile(const std::string& path, std::uint64_t maxBytes,
                                           std::string& error);

// readBoundedFile's error as a sentence about `path`: "cannot read P: No such file or
// directory", "P is a directory", "P is larger than 256 MB".
std::string fileErrorMessage(const std::string& path, const std::string& error);

// "1.5 GB", "300 MB", "12 KB": a size for messages.
std::string describeBytes(std::uint64_t bytes);

}  // namespace star
