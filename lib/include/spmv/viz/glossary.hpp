#pragma once
/// The explorer's glossary (Qt-free, so the CLI and tests read the same words): the symbols of
/// the source papers that the views print next to numbers, each with a one-paragraph
/// definition in the project's terms and where it comes from. The GUI shows them in
/// Help > Glossary and as tooltips on the labels and table headers that use them.
#include <span>
#include <string_view>

namespace spmv::viz {

struct GlossaryEntry {
    std::string_view term;        ///< as the views print it, e.g. "N_iter"
    std::string_view definition;  ///< plain text, one paragraph
    std::string_view source;      ///< paper and section, e.g. "PELLR eq. 1"
};

/// Every entry, in the order of a reader who meets them: matrix, formats, warps, model,
/// distribution.
std::span<const GlossaryEntry> glossary();

/// The entry whose term is `term` (exact, case-sensitive), or nullptr.
const GlossaryEntry* find_glossary(std::string_view term);

}  // namespace spmv::viz
