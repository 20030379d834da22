#pragma once
// Case-insensitive lookup of a named profile (GPU, link, host) in a table, shared by the
// single-GPU and the distributed model. Internal to lib/src.
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

#include <spmv/error.hpp>

namespace spmv::model::detail {

inline std::string lower(std::string_view s)
{
    std::string r(s);
    std::transform(r.begin(), r.end(), r.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return r;
}

/// The entry of `table` named `name` ignoring case; throws InvalidArgument "unknown <what>
/// 'name'; known: A B C" otherwise.
template <typename Table>
const auto& find_named(const Table& table, std::string_view name, const char* what)
{
    std::string names;
    for (const auto& p : table) {
        if (lower(p.name) == lower(name)) {
            return p;
        }
        names += (names.empty() ? "" : " ") + p.name;
    }
    SPMV_THROW(InvalidArgument,
               std::string("unknown ") + what + " '" + std::string(name) + "'; known: " + names);
}

}  // namespace spmv::model::detail
