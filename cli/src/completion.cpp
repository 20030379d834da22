// spmvlab --completion bash|zsh: completion scripts written from the App tree (man_page.hpp).
// The script holds, for each command path ("", "info", "generate pde", "dist solve"), its
// subcommands, its options, which options take a value and the fixed choices of those that
// have them (CLI::IsMember: "TEXT:{cg,jacobi-cg,mpir-cg}"); a small function walks the words
// typed so far to find the command path, as git's and cargo's completions do.
#include <functional>

#include <spmv/error.hpp>

#include "man_page.hpp"

namespace spmvlab {
namespace {

struct Level {
    std::string path;                  ///< "" for spmvlab itself, else "dist solve"
    std::vector<std::pair<std::string, std::string>> commands;  ///< name, description
    std::vector<std::pair<std::string, std::string>> options;   ///< "--name", description
    std::vector<std::string> takes_value;                        ///< option names
    std::vector<std::pair<std::string, std::string>> choices;    ///< option name, "a b c"
};

/// "a b c" from a type name holding "{a,b,c}", else empty
std::string choices_of(const std::string& type_name)
{
    const auto open = type_name.find('{');
    const auto close = type_name.find('}', open);
    if (open == std::string::npos || close == std::string::npos) {
        return {};
    }
    std::string list = type_name.substr(open + 1, close - open - 1);
    for (char& c : list) {
        c = c == ',' ? ' ' : c;
    }
    return list;
}

std::string one_line(std::string s)
{
    for (char& c : s) {
        c = (c == '\n' || c == '\t') ? ' ' : c;
    }
    return s;
}

void collect(const CLI::App& app, const std::string& path, std::vector<Level>& levels)
{
    Level level;
    level.path = path;
    const auto subs =
        app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); });
    for (const CLI::App* s : subs) {
        level.commands.emplace_back(s->get_name(), one_line(s->get_description()));
    }
    for (const CLI::Option* o :
         app.get_options([](const CLI::Option* o) { return !o->get_group().empty(); })) {
        std::vector<std::string> names;
        for (const auto& l : o->get_lnames()) names.push_back("--" + l);
        for (const auto& s : o->get_snames()) names.push_back("-" + s);
        for (const auto& n : names) {
            level.options.emplace_back(n, one_line(o->get_description()));
            if (o->get_items_expected_max() > 0) {
                level.takes_value.push_back(n);
                if (const auto c = choices_of(o->get_type_name()); !c.empty()) {
                    level.choices.emplace_back(n, c);
                }
            }
        }
    }
    levels.push_back(std::move(level));
    for (const CLI::App* s : subs) {
        collect(*s, path.empty() ? s->get_name() : path + " " + s->get_name(), levels);
    }
}

/// 'text' for the shell (a ' inside as '\'')
std::string quoted(const std::string& text)
{
    std::string q = "'";
    for (const char c : text) {
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return q + "'";
}

/// A shell function `name PATH` printing, for the level with that path, what `body` gives
/// (levels with nothing are left out: the function then prints nothing).
std::string case_function(const std::string& name, const std::vector<Level>& levels,
                          const std::function<std::string(const Level&)>& body)
{
    std::string f = name + "() {\n    case \"$1\" in\n";
    for (const auto& l : levels) {
        const std::string b = body(l);
        if (!b.empty()) {
            f += "        " + quoted(l.path) + ") " + b + " ;;\n";
        }
    }
    return f + "    esac\n}\n";
}

std::string words(const std::vector<std::pair<std::string, std::string>>& items)
{
    std::string w;
    for (const auto& [name, text] : items) {
        w += (w.empty() ? "" : " ") + name;
    }
    return w;
}

/// The functions both shells share (their syntax is common to bash and zsh).
std::string data_functions(const std::vector<Level>& levels)
{
    std::string s;
    s += "# the subcommands of a command path (\"\" is spmvlab itself)\n";
    s += case_function("_spmvlab_commands", levels, [](const Level& l) {
        return l.commands.empty() ? std::string() : "echo " + quoted(words(l.commands));
    });
    s += "# its options\n";
    s += case_function("_spmvlab_options", levels, [](const Level& l) {
        return l.options.empty() ? std::string() : "echo " + quoted(words(l.options));
    });
    s += "# _spmvlab_takes_value PATH OPTION: whether OPTION of PATH takes a value\n";
    s += "_spmvlab_takes_value() {\n    case \"$1|$2\" in\n";
    for (const auto& l : levels) {
        for (const auto& n : l.takes_value) {
            s += "        " + quoted(l.path + "|" + n) + ") return 0 ;;\n";
        }
    }
    s += "    esac\n    return 1\n}\n";
    s += "# _spmvlab_choices PATH OPTION: the values OPTION allows, when it has a fixed set\n";
    s += "_spmvlab_choices() {\n    case \"$1|$2\" in\n";
    for (const auto& l : levels) {
        for (const auto& [n, c] : l.choices) {
            s += "        " + quoted(l.path + "|" + n) + ") echo " + quoted(c) + " ;;\n";
        }
    }
    s += "    esac\n}\n";
    return s;
}

std::string bash_script(const std::vector<Level>& levels)
{
    std::string s;
    s += "# bash completion for spmvlab, generated by `spmvlab --completion bash` from the "
         "command line's\n# own definition (cli/src/completion.cpp); installed as "
         "share/bash-completion/completions/spmvlab.\n";
    s += data_functions(levels);
    s += R"SH(_spmvlab() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} path='' word i
    COMPREPLY=()
    # the command path: the subcommand names typed so far (an option's value is skipped)
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        if [[ $word == -* ]]; then
            if [[ $word != *=* ]] && _spmvlab_takes_value "$path" "$word"; then
                i=$((i + 1))
            fi
        elif [[ " $(_spmvlab_commands "$path") " == *" $word "* ]]; then
            path=${path:+$path }$word
        fi
    done
    if ((COMP_CWORD > 1)) && [[ $prev == -* ]] && _spmvlab_takes_value "$path" "$prev"; then
        # a value: its fixed choices, else (complete -o default) file names
        local choices
        choices=$(_spmvlab_choices "$path" "$prev")
        if [[ -n $choices ]]; then
            COMPREPLY=($(compgen -W "$choices" -- "$cur"))
        fi
        return 0
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_spmvlab_options "$path")" -- "$cur"))
    else
        COMPREPLY=($(compgen -W "$(_spmvlab_commands "$path")" -- "$cur"))
    fi
    return 0
}
complete -o default -F _spmvlab spmvlab
)SH";
    return s;
}

std::string zsh_script(const std::vector<Level>& levels)
{
    std::string s;
    s += "#compdef spmvlab\n";
    s += "# zsh completion for spmvlab, generated by `spmvlab --completion zsh` from the command "
         "line's\n# own definition (cli/src/completion.cpp); installed as "
         "share/zsh/site-functions/_spmvlab.\n";
    s += data_functions(levels);
    const auto described = [](const std::vector<std::pair<std::string, std::string>>& items) {
        std::string lines;
        for (const auto& [name, text] : items) {
            lines += " " + quoted(name + ":" + text);
        }
        return lines.empty() ? std::string() : "print -rl --" + lines;
    };
    s += "# name:description lines for _describe\n";
    s += case_function("_spmvlab_command_lines", levels,
                       [&](const Level& l) { return described(l.commands); });
    s += case_function("_spmvlab_option_lines", levels,
                       [&](const Level& l) { return described(l.options); });
    s += R"SH(_spmvlab() {
    local cmdpath='' word i prev=${words[CURRENT-1]}
    local -a items choices
    for ((i = 2; i < CURRENT; i++)); do
        word=${words[i]}
        if [[ $word == -* ]]; then
            if [[ $word != *=* ]] && _spmvlab_takes_value "$cmdpath" "$word"; then
                i=$((i + 1))
            fi
        elif [[ " $(_spmvlab_commands "$cmdpath") " == *" $word "* ]]; then
            cmdpath=${cmdpath:+$cmdpath }$word
        fi
    done
    if ((CURRENT > 2)) && [[ $prev == -* ]] && _spmvlab_takes_value "$cmdpath" "$prev"; then
        choices=(${=$(_spmvlab_choices "$cmdpath" "$prev")})
        if (($#choices)); then
            compadd -a choices
        else
            _files
        fi
        return
    fi
    if [[ $PREFIX == -* ]]; then
        items=("${(@f)$(_spmvlab_option_lines "$cmdpath")}")
        _describe -t options 'spmvlab option' items
    else
        items=("${(@f)$(_spmvlab_command_lines "$cmdpath")}")
        if [[ -n ${items[1]} ]]; then
            _describe -t commands 'spmvlab command' items
        fi
        _files
    fi
}
_spmvlab "$@"
)SH";
    return s;
}

}  // namespace

std::string completion_script(const CLI::App& app, const std::string& shell)
{
    std::vector<Level> levels;
    collect(app, "", levels);
    if (shell == "bash") {
        return bash_script(levels);
    }
    if (shell == "zsh") {
        return zsh_script(levels);
    }
    SPMV_THROW(spmv::InvalidArgument, "--completion " + shell + ": bash or zsh");
}

}  // namespace spmvlab
