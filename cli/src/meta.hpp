#pragma once
/// The versioned output schema of spmvlab (docs/output-schema.md, schemas/*.schema.json).
///
/// Every JSON document a command writes (--json on standard output, --json-out files) is an
/// object whose "meta" block says which schema it follows, what wrote it, where and from what:
///   {"meta": {"schema": "spmvlab/1", "schema_version": 1, "command": "bench",
///             "tool": "spmvlab", "tool_version": "0.1.0", "commit": "...", "date": "...Z",
///             "host": {"name": ..., "cpu": ...}, "build": {"compiler": ..., "flags": ...},
///             "gpu": null | {"device": ..., "cuda_runtime": "12.4", ...},
///             "command_line": [argv...], "inputs": [{"path", "bytes", "sha256"} | {"spec"}]},
///    ...the command's own fields...}
/// Records written before the schema existed (unversioned) are brought to the current shape by
/// upgrade_record, which every reader of records goes through (read_bench_json and friends).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>
#include <spmv/formats/csr.hpp>

namespace spmvlab {

inline constexpr const char* schema_name = "spmvlab/1";
inline constexpr int schema_version = 1;

/// Remembers argv for meta.command_line (main() calls it before parsing).
void set_command_line(int argc, const char* const* argv);

/// The meta block of an output of `command` ("bench", "dist bench", ...): schema, tool, commit,
/// date (ISO-8601 UTC), host, build, the command line, and `inputs` (files or generator specs,
/// see input_meta). meta.gpu is null: add_gpu_meta fills it where a GPU was used.
nlohmann::json make_meta(std::string_view command, const std::vector<std::string>& inputs = {});

/// The inputs of collect_inputs as strings, for make_meta.
std::vector<std::string> input_strings(const std::vector<std::filesystem::path>& inputs);

/// One input: a file {"path", "bytes", "sha256"} (sha256 null with "sha256_note" saying why
/// when this build has no OpenSSL or the file cannot be read), or a generator spec
/// {"spec": "gen:pde:size=100", "path": null, "bytes": null, "sha256": null}.
nlohmann::json input_meta(const std::string& input);

/// Sets meta.gpu from the current CUDA device: name, compute capability, memory, and the CUDA
/// runtime, driver and cuSPARSE versions. Leaves null (with meta.gpu_note) when there is none.
void add_gpu_meta(nlohmann::json& meta);

/// {"meta": make_meta(command, inputs)} followed by the fields of `body` (an object).
nlohmann::json with_meta(std::string_view command, nlohmann::json body,
                         const std::vector<std::string>& inputs = {});

/// One entry of a multi-input run's "failed" list (schemas/meta.schema.json#/$defs/failed):
/// {"input": the input as collected, "matrix": its display name, "reason": why it could not
/// be read}. Commands that go on past an unreadable input (info, bench, recommend, verify with
/// several inputs) list every such input there, besides saying so on stderr and exiting 1.
nlohmann::json failed_input(const std::filesystem::path& input, const std::string& reason);

/// load_matrix(input), or std::nullopt when it cannot be read: then, as load_or_report, a
/// "spmvlab: skipped INPUT: REASON" line on stderr, and failed_input(input, reason) appended to
/// `failed` (an array).
std::optional<spmv::Csr<double, std::int32_t>> load_or_record(const std::filesystem::path& input,
                                                              nlohmann::json& failed);

/// The schema's precision values: "dp", "DP", "double" -> "double"; "sp", "SP", "single",
/// "float" -> "single"; anything else ("both", "mixed") is returned as it is.
std::string precision_name(std::string_view p);

/// An output record of any version brought to the current schema, for readers: a record with
/// meta.schema_version == schema_version is returned as it is; an unversioned one (written
/// before the schema) gets a meta block built from its "tool"/"version", "commit",
/// "date"/"timestamp" (moved there) with meta.upgraded_from = "unversioned", its precision
/// values normalised (precision_name, at any depth), "file" renamed "matrix", and a bare array
/// wrapped as {"meta", "<command's array key>": [...]} (formats: "formats", model:
/// "predictions", others: "results"). `command` names what wrote it when the record does not.
/// Throws InvalidArgument for a newer schema_version than this build knows.
nlohmann::json upgrade_record(nlohmann::json record, std::string_view command);

}  // namespace spmvlab
