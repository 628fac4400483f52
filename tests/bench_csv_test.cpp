#include "bench_csv.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "stategraph/core/state.hpp"
#include "stategraph/io/io.hpp"

namespace stategraph {
namespace {

// Shaped like Google Benchmark 1.7's --benchmark_out_format=json (trimmed).
const char* kSample = R"({
  "context": {"date": "2026-12-03T09:23:11+00:00", "host_name": "h", "num_cpus": 2, "mhz_per_cpu": 2000,
              "caches": [{"type": "Data", "level": 1, "size": 49152, "num_sharing": 1}],
              "library_build_type": "debug"},
  "benchmarks": [
    {"name": "MICRO/rank/sliding", "family_index": 0, "per_family_instance_index": 0,
     "run_name": "MICRO/rank/sliding", "run_type": "iteration", "repetitions": 1, "repetition_index": 0,
     "threads": 1, "iterations": 1000, "real_time": 1.5e+04, "cpu_time": 1.49e+04, "time_unit": "ns",
     "states_per_s": 2.7e+08},
    {"name": "FetchOr/10!/threads:2", "run_name": "FetchOr/10!/threads:2", "run_type": "aggregate",
     "aggregate_name": "median", "repetitions": 3, "iterations": 3, "real_time": 12.5, "cpu_time": 24,
     "time_unit": "ms", "ops_per_s": 1.7e9, "label": "a \"quoted\", label"}
  ]
})";

TEST(BenchCsvTest, ConvertsEntriesAndCounters) {
  const CsvData d = parse_csv(benchmark_json_to_csv(kSample), "out");
  const std::vector<std::string> header = {"name",        "family",      "run_type",          "aggregate_name",
                                           "repetitions", "iterations",  "real_time",         "cpu_time",
                                           "time_unit",   "ops_per_s",   "states_per_s",      "date",
                                           "num_cpus",    "mhz_per_cpu", "library_build_type"};
  EXPECT_EQ(d.header, header);
  ASSERT_EQ(d.rows.size(), 2u);
  const auto& a = d.rows[0];
  EXPECT_EQ(a[d.column("name", "")], "MICRO/rank/sliding");
  EXPECT_EQ(a[d.column("family", "")], "MICRO");
  EXPECT_EQ(a[d.column("iterations", "")], "1000");
  EXPECT_EQ(a[d.column("real_time", "")], "1.5e+04");
  EXPECT_EQ(a[d.column("states_per_s", "")], "2.7e+08");
  EXPECT_EQ(a[d.column("ops_per_s", "")], "");  // a counter this entry lacks
  EXPECT_EQ(a[d.column("library_build_type", "")], "debug");
  EXPECT_EQ(a[d.column("num_cpus", "")], "2");
  const auto& b = d.rows[1];
  EXPECT_EQ(b[d.column("family", "")], "FetchOr");
  EXPECT_EQ(b[d.column("aggregate_name", "")], "median");
  EXPECT_EQ(b[d.column("ops_per_s", "")], "1.7e9");
}

// The committed benchmark CSVs were written from their JSON by the exporter: it must
// still write them byte for byte (numbers as the JSON has them, same columns).
TEST(BenchCsvTest, ReproducesTheCommittedCsvs) {
  const std::filesystem::path dir = std::filesystem::path(STATEGRAPH_SOURCE_DIR) / "results/bench";
  auto slurp = [](const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  int compared = 0;
  for (const char* name : {"micro", "bfs12-rotate"}) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(std::filesystem::exists(dir / (std::string(name) + ".json")));
    EXPECT_EQ(benchmark_json_to_csv(slurp(dir / (std::string(name) + ".json"))),
              slurp(dir / (std::string(name) + ".csv")));
    ++compared;
  }
  EXPECT_EQ(compared, 2);
}

TEST(BenchCsvTest, MalformedInputIsAnInputError) {
  EXPECT_THROW(benchmark_json_to_csv(""), InputError);
  EXPECT_THROW(benchmark_json_to_csv("{\"context\": {}}"), InputError);
  EXPECT_THROW(benchmark_json_to_csv("{\"benchmarks\": [ {\"name\": \"x\", } ]}"), InputError);
  EXPECT_THROW(benchmark_json_to_csv("{\"benchmarks\": [1]}"), InputError);
  EXPECT_THROW(benchmark_json_to_csv("{\"benchmarks\": []} trailing"), InputError);
  EXPECT_THROW(benchmark_json_to_csv("{\"benchmarks\": [{\"real_time\": 1.2.3}]}"), InputError);
}

TEST(BenchCsvTest, ParseCsvReadsWhatCsvTableWrites) {
  CsvTable t({"a", "b"});
  t.add_row({"x,y", "say \"hi\""});
  t.add_row({"", "line\nbreak"});
  const CsvData d = parse_csv(t.str(), "t");
  EXPECT_EQ(d.header, (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(d.rows.size(), 2u);
  EXPECT_EQ(d.rows[0], (std::vector<std::string>{"x,y", "say \"hi\""}));
  EXPECT_EQ(d.rows[1], (std::vector<std::string>{"", "line\nbreak"}));
  EXPECT_THROW(parse_csv("a,b\n1\n", "t"), InputError);
  EXPECT_THROW(parse_csv("a,b\n\"1,2\n", "t"), InputError);
}

}  // namespace
}  // namespace stategraph
