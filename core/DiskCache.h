// A cache of compiled code on disk, shared by processes: the compiled tier keeps what the host
// compiler or NVRTC built there, keyed by everything that changes it.
//
// The directory is $STAR_CACHE_DIR, else $XDG_CACHE_HOME/star, else $HOME/.cache/star. An entry is
// one file written whole to a private name and renamed into place, so that concurrent writers
// never interleave and a reader sees a whole entry or none; each entry carries its length and a
// checksum, so that a truncated, corrupt or foreign file reads as a miss (and is rebuilt).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace star {

// 64-bit FNV-1a, continuing from `seed`: the keys' hash.
std::uint64_t fnv1a(std::string_view bytes, std::uint64_t seed = 14695981039346656037ull);

// A cache entry's name: <prefix>-<key as 16 hex digits><suffix> ("host-...so", "cuda-...cubin").
std::string cacheEntryName(std::string_view prefix, std::uint64_t key, std::string_view suffix);

// The cache directory ("" when no home is known); created on first use.
std::string cacheDirectory();

class DiskCache {
 public:
  explicit DiskCache(std::string directory) : dir_(std::move(directory)) {}
  bool usable() const { return !dir_.empty(); }
  // The payload stored under `key` (a file name: letters, digits, '-', '.'), or nullopt: absent,
  // unreadable, truncated, corrupt, or of another format.
  std::optional<std::string> read(const std::string& key) const;
  // Stores it; false when the directory cannot be written (the caller goes on without a cache).
  bool write(const std::string& key, std::string_view payload) const;
  const std::string& directory() const { return dir_; }

 private:
  std::string dir_;
};

}  // namespace star
