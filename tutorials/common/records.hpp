#pragma once
/// The committed H100 records, for the lessons that put measured GPU times next to what they
/// compute on the host: docs/benchmarks/h100_2026-11-26/<part>/bench.json (parts a, b: the
/// collection; large, fitlarge: generated matrices such as gen:pde:size=100), written by
/// `spmvlab bench --gpu --json-out` on an NVIDIA H100 80GB HBM3 at commit 7aa03ad, 2026-11-26.
/// Each row of "results" is one kernel variant on one matrix in one precision: median_ms (kernel
/// only, L2 flushed before every repetition) and xgpu_ms (x to the device, the SpMV, y back).
///
/// The reader is written for exactly that file: a JSON object whose "results" array holds flat
/// objects of strings, numbers and null. It keeps the lessons free of a JSON dependency; the
/// CLI, which reads any JSON, uses nlohmann/json.
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#ifndef SPMV_SAMPLES_DIR
#error "SPMV_SAMPLES_DIR must name the sample_matrices/ folder (set by tutorials/CMakeLists.txt)"
#endif

namespace tutorial {

/// One timed variant: matrix, precision ("sp" / "dp"), format (the variant name, "ellg"), and
/// an error text when it was not run (e.g. a layout over the run's memory limit).
struct BenchRow {
    std::string matrix, precision, format, error;
    std::int64_t rows = 0, cols = 0, nnz = 0;
    double median_ms = NAN, xgpu_ms = NAN, gflops = NAN;
};

struct BenchRecords {
    std::string part, device, commit, date;
    std::vector<BenchRow> rows;

    /// The row of (matrix, precision, format), measured or not (see `error`), or nullptr.
    const BenchRow* any(std::string_view matrix, std::string_view precision,
                        std::string_view format) const
    {
        for (const auto& r : rows) {
            if (r.matrix == matrix && r.precision == precision && r.format == format) return &r;
        }
        return nullptr;
    }
    /// The row of (matrix, precision, format) measured without error, or nullptr.
    const BenchRow* find(std::string_view matrix, std::string_view precision,
                         std::string_view format) const
    {
        const auto* r = any(matrix, precision, format);
        return r != nullptr && r->error.empty() ? r : nullptr;
    }
};

/// docs/benchmarks/h100_2026-11-26 of the source tree (next to sample_matrices/).
inline std::filesystem::path h100_records_dir()
{
    return std::filesystem::path(SPMV_SAMPLES_DIR).parent_path() / "docs" / "benchmarks" /
           "h100_2026-11-26";
}

namespace detail {

/// Just enough JSON: strings, numbers, null/true/false, and skipping nested values.
class JsonCursor {
public:
    explicit JsonCursor(std::string text) : s_(std::move(text)) {}

    char peek()
    {
        while (at_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[at_]))) ++at_;
        if (at_ >= s_.size()) fail("unexpected end");
        return s_[at_];
    }
    void expect(char c)
    {
        if (peek() != c) fail(std::string("expected '") + c + "'");
        ++at_;
    }
    bool take(char c) { return peek() == c ? (++at_, true) : false; }

    std::string string()
    {
        expect('"');
        std::string out;
        while (at_ < s_.size() && s_[at_] != '"') {
            char c = s_[at_++];
            if (c == '\\' && at_ < s_.size()) {
                c = s_[at_++];
                if (c == 'n') c = '\n';
                if (c == 't') c = '\t';
                if (c == 'u') {  // not needed by the records: keep a placeholder
                    at_ += 4;
                    c = '?';
                }
            }
            out += c;
        }
        expect('"');
        return out;
    }
    /// A number, or NaN for null (the records write null for "not measured").
    double number()
    {
        peek();  // skips white space
        if (s_.compare(at_, 4, "null") == 0) {
            at_ += 4;
            return NAN;
        }
        const char* begin = s_.c_str() + at_;
        char* end = nullptr;
        const double v = std::strtod(begin, &end);
        if (end == begin) fail("expected a number");
        at_ += static_cast<std::size_t>(end - begin);
        return v;
    }
    void skip_value()
    {
        const char c = peek();
        if (c == '"') {
            string();
        } else if (c == '{' || c == '[') {
            const char close = c == '{' ? '}' : ']';
            ++at_;
            if (take(close)) return;
            do {
                if (c == '{') string(), expect(':');
                skip_value();
            } while (take(','));
            expect(close);
        } else if (c == 't' || c == 'f') {
            at_ += c == 't' ? 4 : 5;
        } else {
            number();
        }
    }
    [[noreturn]] void fail(const std::string& what) const
    {
        throw std::runtime_error("bench.json: " + what + " at byte " + std::to_string(at_));
    }

private:
    std::string s_;
    std::size_t at_ = 0;
};

inline BenchRow parse_row(JsonCursor& in)
{
    BenchRow r;
    in.expect('{');
    if (in.take('}')) return r;
    do {
        const auto key = in.string();
        in.expect(':');
        if (key == "matrix")
            r.matrix = in.string();
        else if (key == "precision")
            r.precision = in.string();
        else if (key == "format")
            r.format = in.string();
        else if (key == "error")
            r.error = in.string();
        else if (key == "rows")
            r.rows = static_cast<std::int64_t>(in.number());
        else if (key == "cols")
            r.cols = static_cast<std::int64_t>(in.number());
        else if (key == "nnz")
            r.nnz = static_cast<std::int64_t>(in.number());
        else if (key == "median_ms")
            r.median_ms = in.number();
        else if (key == "xgpu_ms")
            r.xgpu_ms = in.number();
        else if (key == "gflops")
            r.gflops = in.number();
        else
            in.skip_value();
    } while (in.take(','));
    in.expect('}');
    return r;
}

}  // namespace detail

/// Reads h100_records_dir() / part / "bench.json". Throws std::runtime_error when the file is
/// missing or not of the shape above.
inline BenchRecords read_h100_records(const std::string& part)
{
    const auto path = h100_records_dir() / part / "bench.json";
    std::ifstream file(path, std::ios::binary);
    if (!file) throw std::runtime_error("cannot read " + path.string());
    std::ostringstream text;
    text << file.rdbuf();
    detail::JsonCursor in(text.str());
    BenchRecords records;
    records.part = part;
    in.expect('{');
    do {
        const auto key = in.string();
        in.expect(':');
        if (key == "device")
            records.device = in.string();
        else if (key == "commit")
            records.commit = in.string();
        else if (key == "date")
            records.date = in.string();
        else if (key != "results")
            in.skip_value();
        else {
            in.expect('[');
            if (!in.take(']')) {
                do records.rows.push_back(detail::parse_row(in));
                while (in.take(','));
                in.expect(']');
            }
        }
    } while (in.take(','));
    return records;
}

}  // namespace tutorial
