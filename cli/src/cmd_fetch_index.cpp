// The collection's index ssstats.csv and fetch --search's filter (fetch_index.hpp).
// (Named cmd_fetch_*.cpp so that cli/CMakeLists.txt's glob of the commands builds it.)
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <string>

#include <spmv/error.hpp>

#include "fetch_index.hpp"

namespace spmvlab::fetch {

bool valid_name(const std::string& s)
{
    return !s.empty() && s != "." && s != ".." &&
           std::all_of(s.begin(), s.end(), [](unsigned char c) {
               return std::isalnum(c) != 0 || c == '_' || c == '-' || c == '.' || c == '+';
           });
}

std::vector<std::string> csv_fields(const std::string& line)
{
    std::vector<std::string> out(1);
    bool quoted = false;
    for (std::size_t k = 0; k < line.size(); ++k) {
        const char c = line[k];
        if (c == '"') {
            if (quoted && k + 1 < line.size() && line[k + 1] == '"') {
                out.back() += '"';
                ++k;
            } else {
                quoted = !quoted;
            }
        } else if (c == ',' && !quoted) {
            out.emplace_back();
        } else if (c != '\r') {
            out.back() += c;
        }
    }
    return out;
}

std::optional<std::int64_t> to_int(const std::string& s)
{
    try {
        std::size_t used = 0;
        const auto v = std::stoll(s, &used);
        return used == s.size() ? std::optional<std::int64_t>(v) : std::nullopt;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

namespace {

std::optional<double> to_double(const std::string& s)
{
    try {
        std::size_t used = 0;
        const auto v = std::stod(s, &used);
        return used == s.size() && std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

/// A 0/1 flag of the index; -1 when absent or not 0/1.
int flag(const std::vector<std::string>& f, std::size_t k)
{
    if (k >= f.size()) {
        return -1;
    }
    const auto v = to_int(f[k]);
    return v && (*v == 0 || *v == 1) ? static_cast<int>(*v) : -1;
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

bool contains_nocase(const std::string& text, const std::string& part)
{
    return lower(text).find(lower(part)) != std::string::npos;
}

}  // namespace

Index parse_index(std::istream& in, const std::string& source)
{
    std::string line;
    if (!std::getline(in, line) || !to_int(csv_fields(line)[0])) {
        SPMV_THROW(spmv::InvalidArgument,
                   source +
                       ":1: not the collection's index (ssstats.csv): the first line must be "
                       "the number of matrices");
    }
    Index index;
    index.count = *to_int(csv_fields(line)[0]);
    std::getline(in, line);  // the date of the last revision
    index.date = csv_fields(line)[0];
    std::int64_t number = 2;
    while (std::getline(in, line)) {
        ++number;
        if (line.empty() || line == "\r") {
            continue;
        }
        const auto f = csv_fields(line);
        if (f.size() < 5 || !valid_name(f[0]) || !valid_name(f[1]) || !to_int(f[2]) ||
            !to_int(f[3]) || !to_int(f[4])) {
            SPMV_THROW(spmv::InvalidArgument,
                       source + ":" + std::to_string(number) +
                           ": not an index line 'Group,Name,nrows,ncols,nnz,...'");
        }
        Entry e;
        e.group = f[0];
        e.name = f[1];
        e.id = number - 2;
        e.rows = *to_int(f[2]);
        e.cols = *to_int(f[3]);
        e.nnz = *to_int(f[4]);
        e.is_real = flag(f, 5);
        e.is_binary = flag(f, 6);
        e.is_nd = flag(f, 7);
        e.posdef = flag(f, 8);
        e.pattern_symmetry = f.size() > 9 ? to_double(f[9]).value_or(-1) : -1;
        e.numerical_symmetry = f.size() > 10 ? to_double(f[10]).value_or(-1) : -1;
        e.kind = f.size() > 11 ? f[11] : std::string();
        e.pattern_entries = f.size() > 12 ? to_int(f[12]).value_or(-1) : -1;
        index.entries.push_back(std::move(e));
    }
    if (index.entries.empty() || static_cast<std::int64_t>(index.entries.size()) != index.count) {
        SPMV_THROW(spmv::InvalidArgument, source + ": the index announces " +
                                              std::to_string(index.count) + " matrices and lists " +
                                              std::to_string(index.entries.size()) +
                                              " (truncated download?)");
    }
    return index;
}

Range parse_range(const std::string& text, const std::string& option)
{
    const auto bad = [&](const std::string& why) {
        SPMV_THROW(spmv::InvalidArgument, option + " '" + text + "': " + why +
                                              " (LO:HI, LO:, :HI or N; k, M, G for 10^3, 10^6, "
                                              "10^9: --rows 1k:50k)");
    };
    const auto number = [&](std::string s) -> std::optional<std::int64_t> {
        if (s.empty()) {
            return std::nullopt;
        }
        std::int64_t scale = 1;
        switch (s.back()) {
            case 'k':
            case 'K':
                scale = 1000;
                break;
            case 'M':
                scale = 1000000;
                break;
            case 'G':
                scale = 1000000000;
                break;
            default:
                break;
        }
        if (scale != 1) {
            s.pop_back();
        }
        const auto v = to_int(s);
        if (!v || *v < 0 || s.empty() || s[0] == '+' || *v > INT64_MAX / scale) {
            bad("'" + s + "' is not a count");
        }
        return *v * scale;
    };
    Range r;
    const auto colon = text.find(':');
    if (colon == std::string::npos) {
        if (text.empty()) {
            bad("empty");
        }
        r.min = r.max = number(text);
    } else {
        if (text.find(':', colon + 1) != std::string::npos || text.size() == 1) {
            bad("one ':' between two bounds, at least one of them given");
        }
        r.min = number(text.substr(0, colon));
        r.max = number(text.substr(colon + 1));
    }
    if (r.min && r.max && *r.min > *r.max) {
        bad("the lower bound is above the upper one");
    }
    return r;
}

bool matches(const Entry& e, const Query& q)
{
    return (!q.rows || q.rows->contains(e.rows)) && (!q.cols || q.cols->contains(e.cols)) &&
           (!q.nnz || q.nnz->contains(e.nnz)) &&
           (q.kind.empty() || contains_nocase(e.kind, q.kind)) &&
           (q.group.empty() || e.group == q.group) &&
           (q.name.empty() || contains_nocase(e.name, q.name)) && (!q.spd || e.posdef == 1) &&
           (!q.symmetric || e.numerical_symmetry == 1.0) && (!q.real || e.is_real == 1) &&
           (!q.square || e.rows == e.cols);
}

}  // namespace spmvlab::fetch
