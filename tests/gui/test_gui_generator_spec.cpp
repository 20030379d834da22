// The explorer's generator specs (--generate, --matrix gen:..., lessons,
// session/matrixdocument.hpp): the CLI's syntax gen:NAME[:key=value,...] with the random stream
// as key seed, parsed by the core's spmv::gen::parse_spec, so that a spec names the same matrix
// in both programs; the older NAME[:key=value,...]@SEED is still taken as an alias; bad specs
// say what is wrong.
#include <QString>
#include <catch2/catch.hpp>

#include <spmv/generators.hpp>

#include "session/matrixdocument.hpp"

namespace {

GeneratorSpec parsed(const char* text)
{
    QString error;
    const auto spec = parseGeneratorSpec(QString::fromUtf8(text), &error);
    INFO(text << ": " << error.toStdString());
    REQUIRE(spec.has_value());
    return *spec;
}

std::string failure(const char* text)
{
    QString error = QStringLiteral("(untouched)");
    const auto spec = parseGeneratorSpec(QString::fromUtf8(text), &error);
    INFO(text);
    CHECK_FALSE(spec.has_value());
    return error.toStdString();
}

}  // namespace

TEST_CASE("The explorer takes the CLI's generator specs, seed included", "[gui][generator]")
{
    const auto cli = parsed("gen:powerlaw:rows=2000,max-len=200,seed=3");
    CHECK(cli.generator == QStringLiteral("powerlaw"));
    CHECK(cli.seed == 3);
    CHECK(cli.params == spmv::gen::GeneratorParams{{"rows", 2000.0}, {"max-len", 200.0}});

    // exactly what the CLI passes to spmv::gen::generate for the same text
    const auto core = spmv::gen::parse_spec("gen:powerlaw:rows=2000,max-len=200,seed=3");
    CHECK(cli.generator.toStdString() == core.name);
    CHECK(cli.params == core.params);
    CHECK(cli.seed == core.seed);

    // no parameters, no seed: the generator's defaults and seed 1
    const auto bare = parsed("gen:pde");
    CHECK(bare.generator == QStringLiteral("pde"));
    CHECK(bare.params.empty());
    CHECK(bare.seed == 1);
    CHECK(parsed("gen:pde:size=30").params == spmv::gen::GeneratorParams{{"size", 30.0}});
}

TEST_CASE("The older NAME:...@SEED spelling is an alias of the CLI's", "[gui][generator]")
{
    const auto cli = parsed("gen:powerlaw:rows=2000,max-len=200,seed=3");
    for (const char* alias :
         {"powerlaw:rows=2000,max-len=200@3", "powerlaw:rows=2000,max-len=200,seed=3",
          "gen:powerlaw:rows=2000,max-len=200@3"}) {
        const auto a = parsed(alias);
        INFO(alias);
        CHECK(a.generator == cli.generator);
        CHECK(a.params == cli.params);
        CHECK(a.seed == cli.seed);
    }
    const auto seedOnly = parsed("pde@7");
    CHECK(seedOnly.generator == QStringLiteral("pde"));
    CHECK(seedOnly.params.empty());
    CHECK(seedOnly.seed == 7);
}

TEST_CASE("A bad generator spec is refused with what is wrong", "[gui][generator]")
{
    CHECK_THAT(failure("gen:nope"), Catch::Contains("nope") && Catch::Contains("powerlaw"));
    CHECK_THAT(failure("gen:pde:size=x"), Catch::Contains("'x' is not a number"));
    CHECK_THAT(failure("gen:pde:seed=-1"), Catch::Contains("seed must be a whole number"));
    CHECK_THAT(failure("gen:pde:size=3,size=4"), Catch::Contains("given twice"));
    CHECK_THAT(failure("gen:pde:size"), Catch::Contains("expected key=value"));
    // an alias is rewritten before parsing: the message names the spec as given too
    CHECK_THAT(failure("pde@x"),
               Catch::Contains("'x' is not a number") && Catch::Contains("given as 'pde@x'"));
    CHECK_THAT(failure("gen:powerlaw:rows=10@1,seed=2"), Catch::Contains("given twice"));
}
