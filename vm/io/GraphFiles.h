// Graph loaders: DIMACS shortest-path files (.gr: `p sp N M`, `a U V W`, `c` comments; the format
// of the 9th DIMACS challenge's road graphs) and Matrix Market coordinate files (.mtx: pattern,
// integer or real; general or symmetric). Vertices are numbered from 1 in both.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vm/io/TableText.h"

namespace star {

struct GraphEdge {
  std::uint64_t tail, head;  // 1-based
  std::int64_t weight;       // 1 when the file has no weights
};

struct Graph {
  std::uint64_t vertices = 0;
  std::vector<GraphEdge> edges;
};

// Throws TableFileError("path:line: message") on malformed input.
Graph readGraphFile(const std::string& path);
Graph parseGraph(const std::string& text, const std::string& nameForErrors, bool matrixMarket);

// n x n adjacency table: row u has a 1 in column v for each arc u -> v.
TableData adjacencyTable(const Graph& g);
// The edge-list form of the papers: one edge per row, columns = tail code (vertexBits), head code
// (vertexBits), weight (weightBits), each unsigned binary with the most significant bit first.
// vertexBits = bits needed for the largest vertex number; weightBits = bits for the largest weight
// (at least 1). Negative weights are an error.
TableData edgeListTable(const Graph& g, std::uint64_t& vertexBits, std::uint64_t& weightBits,
                        const std::string& nameForErrors);

}  // namespace star
