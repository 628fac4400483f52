// stategraph_naive_rotate3x3: the naive rotate 3x3 solution (naive_rotate3x3.hpp) as a
// program reading the judge input on stdin, to time `stategraph solve` against it whole
// process (results/bench/solve-rotate3x3.txt).
#include <iostream>

#include "naive_rotate3x3.hpp"

int main() {
  std::ios::sync_with_stdio(false);
  std::cin.tie(nullptr);
  stategraph::bench::solve_naive_rotate3x3(std::cin, std::cout);
  return 0;
}
