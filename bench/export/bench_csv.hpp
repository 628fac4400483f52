// The exporter of Google Benchmark's JSON output (--benchmark_out_format=json) to CSV,
// a tool beside the library (stategraph_bench_csv), one row per benchmark entry.
#pragma once

#include <string>

namespace stategraph {

// Columns: name,family,run_type,aggregate_name,repetitions,iterations,real_time,cpu_time,
// time_unit,<every counter, sorted by name>,date,num_cpus,mhz_per_cpu,library_build_type
// (family = the name up to its first '/'; the last four come from the JSON's context
// and repeat on every row). A counter a benchmark lacks is an empty field; numbers are
// written as the JSON has them.
// InputError (with nlohmann-json's line and column) on malformed JSON or a file
// without "benchmarks".
std::string benchmark_json_to_csv(const std::string& json);

}  // namespace stategraph
