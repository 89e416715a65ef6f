#include "harness/claim_criterion.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>

#include "core/common/error.h"
#include "core/common/options.h"
#include "core/common/strings.h"

namespace arena {

std::string_view ToString(CompareOp op) {
  switch (op) {
    case CompareOp::kLess: return "<";
    case CompareOp::kLessEqual: return "<=";
    case CompareOp::kGreater: return ">";
    case CompareOp::kGreaterEqual: return ">=";
    case CompareOp::kEqual: return "==";
    case CompareOp::kNotEqual: return "!=";
  }
  return "?";
}

namespace {

struct Token {
  enum class Kind { kNumber, kWord, kOp, kPercent, kEnd };
  Kind kind = Kind::kEnd;
  std::string text;
  double number = 0;       // kNumber
  CompareOp op = CompareOp::kLess;  // kOp
  int column = 0;          // 1-based
};

bool IsKeyword(const std::string& word) {
  return word == "and" || word == "within" || word == "of" || word == "between" || word == "factor";
}

bool IsNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

std::string Describe(const Token& t) {
  return t.kind == Token::Kind::kEnd ? "the end" : "'" + t.text + "'";
}

std::string At(int column) { return "column " + std::to_string(column) + ": "; }

std::vector<Token> Tokenize(std::string_view s) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    Token t;
    t.column = static_cast<int>(i) + 1;
    const bool negative = c == '-' && i + 1 < s.size() && (IsDigit(s[i + 1]) || s[i + 1] == '.');
    if (IsDigit(c) || c == '.' || negative) {
      // digits [. digits] [(e|E) [+|-] digits], with an optional leading minus.
      size_t j = i + (negative ? 1 : 0);
      while (j < s.size() && IsDigit(s[j])) ++j;
      if (j < s.size() && s[j] == '.') {
        ++j;
        while (j < s.size() && IsDigit(s[j])) ++j;
      }
      if (j < s.size() && (s[j] == 'e' || s[j] == 'E')) {
        size_t k = j + 1;
        if (k < s.size() && (s[k] == '+' || s[k] == '-')) ++k;
        if (k < s.size() && IsDigit(s[k])) {
          j = k;
          while (j < s.size() && IsDigit(s[j])) ++j;
        }
      }
      t.text = std::string(s.substr(i, j - i));
      const auto [end, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), t.number);
      if (ec != std::errc() || end != t.text.data() + t.text.size() || !std::isfinite(t.number) ||
          (j < s.size() && (IsNameChar(s[j]) || s[j] == '.'))) {
        size_t k = j;
        while (k < s.size() && (IsNameChar(s[k]) || s[k] == '.')) ++k;
        throw InvalidArgument(At(t.column) + "'" + std::string(s.substr(i, k - i)) + "' is not a number");
      }
      t.kind = Token::Kind::kNumber;
      i = j;
    } else if (IsNameStart(c)) {
      size_t j = i;
      while (j < s.size() && IsNameChar(s[j])) ++j;
      t.kind = Token::Kind::kWord;
      t.text = std::string(s.substr(i, j - i));
      i = j;
    } else if (c == '%') {
      t.kind = Token::Kind::kPercent;
      t.text = "%";
      ++i;
    } else if (c == '<' || c == '>' || c == '=' || c == '!') {
      const bool eq = i + 1 < s.size() && s[i + 1] == '=';
      t.kind = Token::Kind::kOp;
      t.text = std::string(s.substr(i, eq ? 2 : 1));
      if (t.text == "<") t.op = CompareOp::kLess;
      else if (t.text == "<=") t.op = CompareOp::kLessEqual;
      else if (t.text == ">") t.op = CompareOp::kGreater;
      else if (t.text == ">=") t.op = CompareOp::kGreaterEqual;
      else if (t.text == "==") t.op = CompareOp::kEqual;
      else if (t.text == "!=") t.op = CompareOp::kNotEqual;
      else throw InvalidArgument(At(t.column) + "unknown operator '" + t.text + "'; operators: < <= > >= == !=");
      i += t.text.size();
    } else {
      throw InvalidArgument(At(t.column) + "unexpected character '" + std::string(1, c) + "'");
    }
    tokens.push_back(std::move(t));
  }
  Token end;
  end.column = static_cast<int>(s.size()) + 1;
  tokens.push_back(end);
  return tokens;
}

}  // namespace

Criterion Criterion::Parse(std::string_view text) {
  const std::vector<Token> tokens = Tokenize(text);
  size_t pos = 0;
  auto peek = [&]() -> const Token& { return tokens[pos]; };
  auto is_word = [&](const char* word) { return peek().kind == Token::Kind::kWord && peek().text == word; };
  auto expect_word = [&](const char* word, const std::string& context) {
    if (!is_word(word)) {
      throw InvalidArgument(At(peek().column) + "expected '" + word + "' " + context + ", found " + Describe(peek()));
    }
    ++pos;
  };
  auto operand = [&](const std::string& context) {
    const Token& t = peek();
    Operand o;
    o.text = t.text;
    if (t.kind == Token::Kind::kNumber) {
      o.kind = Operand::Kind::kNumber;
      o.number = t.number;
    } else if (t.kind == Token::Kind::kWord && t.text == "ours") {
      o.kind = Operand::Kind::kOurs;
    } else if (t.kind == Token::Kind::kWord && !IsKeyword(t.text)) {
      o.kind = Operand::Kind::kName;
      o.name = t.text;
    } else {
      throw InvalidArgument(At(t.column) + "expected 'ours', a measured value's name or a number " + context +
                            ", found " + Describe(t));
    }
    ++pos;
    return o;
  };

  Criterion c;
  c.text_ = std::string(text);
  if (peek().kind == Token::Kind::kEnd) {
    throw InvalidArgument("empty criterion; e.g. 'ours >= 0.95', 'within 20 % of 87.84', 'between 1 and 2'");
  }
  while (true) {
    Clause clause;
    const int column = peek().column;
    // The subject of within / between: ours unless an operand comes first.
    clause.subject.kind = Operand::Kind::kOurs;
    clause.subject.text = "ours";
    std::string subject_text;
    if (!is_word("within") && !is_word("between")) {
      const Operand first = operand("at the start of a clause (or 'within', 'between')");
      if (is_word("within") || is_word("between")) {
        clause.subject = first;
        subject_text = first.text + " ";
      } else if (peek().kind == Token::Kind::kOp) {
        clause.kind = Clause::Kind::kCompare;
        clause.lhs = first;
        clause.op = peek().op;
        ++pos;
        clause.rhs = operand(std::string("after '") + std::string(ToString(clause.op)) + "'");
        clause.text = clause.lhs.text + " " + std::string(ToString(clause.op)) + " " + clause.rhs.text;
      } else {
        throw InvalidArgument(At(peek().column) + "expected an operator (< <= > >= == !=), 'within' or 'between' after '" +
                              first.text + "', found " + Describe(peek()));
      }
    }
    // A comparison is complete here (its text is set); otherwise within or between follows.
    if (clause.text.empty() && is_word("within") && pos + 1 < tokens.size() && tokens[pos + 1].kind == Token::Kind::kWord &&
        tokens[pos + 1].text == "factor") {
      pos += 2;
      clause.kind = Clause::Kind::kWithinFactor;
      const Token& x = peek();
      if (x.kind != Token::Kind::kNumber || !(x.number >= 1.0)) {
        throw InvalidArgument(At(x.column) + "expected a factor >= 1 after 'within factor', found " + Describe(x));
      }
      clause.factor = x.number;
      ++pos;
      expect_word("of", "after 'within factor " + x.text + "'");
      clause.rhs = operand("after 'of'");
      clause.text = subject_text + "within factor " + x.text + " of " + clause.rhs.text;
    } else if (clause.text.empty() && is_word("within")) {
      ++pos;
      clause.kind = Clause::Kind::kWithin;
      const Token& x = peek();
      if (x.kind != Token::Kind::kNumber || x.number < 0) {
        throw InvalidArgument(At(x.column) + "expected a percentage >= 0 after 'within', found " + Describe(x));
      }
      clause.percent = x.number;
      ++pos;
      if (peek().kind != Token::Kind::kPercent) {
        throw InvalidArgument(At(peek().column) + "expected '%' after 'within " + x.text + "', found " +
                              Describe(peek()));
      }
      ++pos;
      expect_word("of", "after 'within " + x.text + " %'");
      clause.rhs = operand("after 'of'");
      clause.text = subject_text + "within " + x.text + " % of " + clause.rhs.text;
    } else if (clause.text.empty()) {  // is_word("between")
      ++pos;
      clause.kind = Clause::Kind::kBetween;
      clause.lhs = operand("after 'between'");
      expect_word("and", "after 'between " + clause.lhs.text + "'");
      clause.rhs = operand("after 'and'");
      clause.text = subject_text + "between " + clause.lhs.text + " and " + clause.rhs.text;
      if (clause.lhs.kind == Operand::Kind::kNumber && clause.rhs.kind == Operand::Kind::kNumber &&
          clause.lhs.number > clause.rhs.number) {
        throw InvalidArgument(At(column) + "'" + clause.text + "' is empty: the lower bound is above the upper");
      }
    }
    bool reads_a_measurement = false;
    for (const Operand* o : c.Read(clause)) reads_a_measurement |= o->kind != Operand::Kind::kNumber;
    if (!reads_a_measurement) {
      throw InvalidArgument(At(column) + "'" + clause.text + "' only reads numbers; judge 'ours' or a measured value");
    }
    c.clauses_.push_back(std::move(clause));
    if (peek().kind == Token::Kind::kEnd) break;
    expect_word("and", "between clauses (or the end)");
  }
  return c;
}

std::vector<const Criterion::Operand*> Criterion::Read(const Clause& c) {
  switch (c.kind) {
    case Clause::Kind::kCompare: return {&c.lhs, &c.rhs};
    case Clause::Kind::kWithin: return {&c.subject, &c.rhs};
    case Clause::Kind::kWithinFactor: return {&c.subject, &c.rhs};
    case Clause::Kind::kBetween: return {&c.lhs, &c.subject, &c.rhs};
  }
  return {};
}

std::vector<std::string> Criterion::Names() const {
  std::set<std::string> names;
  for (const Clause& c : clauses_) {
    for (const Operand* o : Read(c)) {
      if (o->kind == Operand::Kind::kName) names.insert(o->name);
    }
  }
  return {names.begin(), names.end()};
}

Criterion::Outcome Criterion::Evaluate(double ours, const std::map<std::string, double>& values) const {
  for (const std::string& name : Names()) {
    if (values.count(name) == 0) {
      std::vector<std::string> have = {"ours"};
      for (const auto& [k, v] : values) have.push_back(k);
      throw InvalidArgument("criterion '" + text_ + "' reads '" + name +
                            "', which the experiment did not measure (it measured: " + Join(have) + ")");
    }
  }
  auto value = [&](const Operand& o) {
    switch (o.kind) {
      case Operand::Kind::kOurs: return ours;
      case Operand::Kind::kName: return values.at(o.name);
      case Operand::Kind::kNumber: return o.number;
    }
    return std::nan("");
  };
  Outcome out;
  out.met = true;
  std::vector<std::string> failures;
  for (const Clause& c : clauses_) {
    std::vector<std::string> shown, nan;
    std::set<std::string> seen;
    for (const Operand* o : Read(c)) {
      if (o->kind == Operand::Kind::kNumber || !seen.insert(o->text).second) continue;
      const double v = value(*o);
      shown.push_back(o->text + " = " + options_detail::FormatDouble(v));
      if (std::isnan(v)) nan.push_back(o->text);
    }
    bool holds = false;
    if (nan.empty()) {
      switch (c.kind) {
        case Clause::Kind::kCompare: {
          const double a = value(c.lhs), b = value(c.rhs);
          switch (c.op) {
            case CompareOp::kLess: holds = a < b; break;
            case CompareOp::kLessEqual: holds = a <= b; break;
            case CompareOp::kGreater: holds = a > b; break;
            case CompareOp::kGreaterEqual: holds = a >= b; break;
            case CompareOp::kEqual: holds = a == b; break;
            case CompareOp::kNotEqual: holds = a != b; break;
          }
          break;
        }
        case Clause::Kind::kWithin: {
          const double y = value(c.rhs);
          holds = std::abs(value(c.subject) - y) <= c.percent / 100.0 * std::abs(y);
          break;
        }
        case Clause::Kind::kWithinFactor: {
          // Same sign, and neither more than `factor` times the other.
          const double s = value(c.subject), y = value(c.rhs);
          holds = s * y > 0.0 && std::abs(s) <= c.factor * std::abs(y) && std::abs(y) <= c.factor * std::abs(s);
          break;
        }
        case Clause::Kind::kBetween: {
          const double x = value(c.subject);
          holds = value(c.lhs) <= x && x <= value(c.rhs);
          break;
        }
      }
    }
    if (holds) continue;
    out.met = false;
    failures.push_back(nan.empty() ? c.text + " does not hold: " + Join(shown)
                                   : c.text + " cannot hold: " + Join(nan) + (nan.size() == 1 ? " is" : " are") +
                                         " NaN (nothing was measured)");
  }
  out.reason = Join(failures, "; ");
  return out;
}

}  // namespace arena
