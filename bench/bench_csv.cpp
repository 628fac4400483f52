// stategraph_bench_csv IN.json [OUT.csv]: Google Benchmark JSON -> CSV (our exporter,
// bench/export/bench_csv.hpp). Without OUT.csv, IN with .csv for .json.
// Exit 2 on bad input (one line on stderr), 1 when the CSV cannot be written.
#include "bench_csv.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "stategraph/core/state.hpp"
#include "stategraph/io/io.hpp"

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: stategraph_bench_csv IN.json [OUT.csv]\n";
    return 2;
  }
  const std::filesystem::path in_path = argv[1];
  std::filesystem::path out_path = argc == 3 ? std::filesystem::path(argv[2]) : in_path;
  if (argc == 2) out_path.replace_extension(".csv");
  try {
    std::ifstream in(in_path, std::ios::binary);
    if (!in) throw stategraph::InputError("cannot read " + in_path.string());
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string csv = stategraph::benchmark_json_to_csv(ss.str());
    stategraph::write_file_atomic(out_path, csv);
    std::cout << in_path.string() << " -> " << out_path.string() << "\n";
  } catch (const stategraph::InputError& e) {
    std::cerr << "stategraph_bench_csv: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "stategraph_bench_csv: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
