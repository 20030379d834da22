#pragma once
// Tooltips from the glossary (spmv/viz/glossary.hpp): "TERM: definition (source)", so that the
// labels and table headers that print a paper's symbol explain it where it is used.
#include <QString>

#include <spmv/viz/glossary.hpp>

inline QString glossaryTip(const char* term)
{
    const auto* e = spmv::viz::find_glossary(term);
    if (!e) return {};
    auto q = [](std::string_view v) { return QString::fromUtf8(v.data(), static_cast<int>(v.size())); };
    return QStringLiteral("%1: %2 (%3)").arg(q(e->term), q(e->definition), q(e->source));
}
