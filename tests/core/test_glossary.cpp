// The glossary (spmv/viz/glossary.hpp): the terms issue 19 names are there, each defined once,
// with a source, and looked up exactly.
#include <set>
#include <string>

#include <catch2/catch.hpp>

#include <spmv/viz/glossary.hpp>

using namespace spmv::viz;

TEST_CASE("The glossary defines the papers' symbols the views print", "[glossary]")
{
    for (const char* t : {"N_iter", "N_p", "b_r", "sigma", "code balance", "C", "warp", "alpha",
                          "HYB K", "pitch", "diag pad", "halo", "exchange path"}) {
        INFO(t);
        const auto* e = find_glossary(t);
        REQUIRE(e);
        CHECK(e->definition.size() > 40);
        CHECK_FALSE(e->source.empty());
    }
    CHECK(find_glossary("n_iter") == nullptr);  // exact terms
    CHECK(find_glossary("nothing") == nullptr);
    std::set<std::string> seen;
    for (const auto& e : glossary()) {
        CHECK(seen.insert(std::string(e.term)).second);  // each term once
    }
    // N_p as PELLR eq. 2 counts it: 2 nnz - (non-empty rows) with a thread per row
    CHECK(std::string(find_glossary("N_p")->definition).find("2 nnz - (non-empty rows)") !=
          std::string::npos);
}
