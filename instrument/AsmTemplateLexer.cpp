//===- AsmTemplateLexer.cpp - Statements of an inline asm template --------===//
//
// Operand references are kept in a statement's text as
// kOperandBegin N [':' mod] kOperandEnd, characters no assembler source
// holds, so that a classifier can tell `$0` from a literal `$0` (`$$0`).
//
//===----------------------------------------------------------------------===//

#include "AsmTemplateLexer.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cassert>

using namespace llvm;

namespace pcmap {
namespace {

constexpr char kOperandBegin = '\x01', kOperandEnd = '\x02';

std::string operandMarker(StringRef Body) {
  return std::string(1, kOperandBegin) + Body.str() + kOperandEnd;
}

bool isLabelChar(char C) {
  return isAlnum(C) || C == '_' || C == '.' || C == '$';
}

class TemplateLexer {
public:
  TemplateLexer(StringRef T, StringRef LineComment)
      : T(T), LineComment(LineComment) {
    assert(!LineComment.empty() && "a comment needs a start");
  }

  LexedTemplate lex();

private:
  /// Appends S to the statement, every character at template offset Offset:
  /// a string or an operand reference begins where its first character is.
  void put(StringRef S, size_t Offset) {
    for (char C : S) {
      Cur.Text.push_back(C);
      Cur.Offsets.push_back(Offset);
    }
  }

  void endStatement() {
    L.Statements.push_back(std::move(Cur));
    Cur = AsmStatement();
  }

  /// The newline that ends the line I is on, or the end of the template.
  size_t lineEnd(size_t I) const {
    size_t NL = T.find('\n', I);
    return NL == StringRef::npos ? T.size() : NL;
  }

  /// Just past the string literal that begins at I.
  size_t stringEnd(size_t I) const {
    size_t J = I + 1;
    while (J < T.size() && T[J] != '"')
      J += T[J] == '\\' ? 2 : 1;
    return std::min(J + 1, T.size());
  }

  size_t lexDollar(size_t I);
  size_t lexBracedDollar(size_t I);

  StringRef T, LineComment;
  LexedTemplate L;
  AsmStatement Cur;
};

LexedTemplate TemplateLexer::lex() {
  for (size_t I = 0, E = T.size(); I < E;) {
    char C = T[I];
    if (C == '\n' || C == ';') {
      endStatement();
      ++I;
    } else if (C == '"') {
      size_t J = stringEnd(I);
      put(T.slice(I, J), I);
      I = J;
    } else if (T.substr(I).starts_with(LineComment)) {
      I = lineEnd(I);
    } else if (T.substr(I).starts_with("/*")) {
      size_t End = T.find("*/", I + 2);
      I = End == StringRef::npos ? E : End + 2;
    } else if (C == '$') {
      I = lexDollar(I);
      // The rest of the template means nothing once an escape is not known.
      if (I == StringRef::npos)
        return std::move(L);
    } else {
      put(T.substr(I, 1), I);
      ++I;
    }
  }
  endStatement();
  return std::move(L);
}

/// Reads the escape that begins with the `$` at I. Returns where lexing goes
/// on, or npos with L.Problem set.
size_t TemplateLexer::lexDollar(size_t I) {
  char Next = I + 1 < T.size() ? T[I + 1] : '\0';
  if (Next == '$') {
    put("$", I);
    return I + 2;
  }
  if (isDigit(Next)) {
    size_t J = I + 1;
    while (J < T.size() && isDigit(T[J]))
      ++J;
    put(operandMarker(T.slice(I + 1, J)), I);
    return J;
  }
  if (Next == '{')
    return lexBracedDollar(I);
  // `$(`, `$|`, `$)`: alternatives for several asm dialects.
  L.Problem = "dialect alternatives in the template";
  return StringRef::npos;
}

/// Reads `${N:mod}`, `${:uid}`, `${:private}` or `${:comment}` at I.
size_t TemplateLexer::lexBracedDollar(size_t I) {
  size_t End = T.find('}', I);
  if (End == StringRef::npos) {
    L.Problem = "unterminated '${'";
    return StringRef::npos;
  }
  StringRef Body = T.slice(I + 2, End);
  if (Body == ":uid") {
    put("UID", I);
  } else if (Body == ":private") {
    put(".L", I);
  } else if (Body == ":comment") {
    End = lineEnd(I) - 1;
  } else if (!Body.empty() && isDigit(Body[0])) {
    put(operandMarker(Body), I);
  } else {
    L.Problem = ("template escape '${" + Body + "}'").str();
    return StringRef::npos;
  }
  return End + 1;
}

/// The operands of a statement from OperandsBegin on, split at commas outside
/// parentheses, brackets and braces.
void splitOperands(StringRef Rest, SmallVectorImpl<StringRef> &Operands) {
  unsigned Depth = 0;
  size_t Start = 0;
  for (size_t K = 0; K < Rest.size(); ++K) {
    char C = Rest[K];
    if (C == '(' || C == '[' || C == '{')
      ++Depth;
    else if ((C == ')' || C == ']' || C == '}') && Depth)
      --Depth;
    else if (C == ',' && !Depth) {
      Operands.push_back(Rest.slice(Start, K).trim());
      Start = K + 1;
    }
  }
  if (!Rest.empty())
    Operands.push_back(Rest.substr(Start).trim());
}

} // namespace

std::string AsmStatement::displayText() const {
  std::string Shown;
  for (char C : Text) {
    if (C == kOperandBegin)
      Shown += '$';
    else if (C != kOperandEnd)
      Shown += C;
  }
  return StringRef(Shown).trim().str();
}

LexedTemplate lexTemplate(StringRef Template, StringRef LineComment) {
  return TemplateLexer(Template, LineComment).lex();
}

ParsedStatement parseStatement(const AsmStatement &S) {
  StringRef T = S.Text;
  ParsedStatement P;
  size_t I = 0;
  auto SkipSpace = [&] {
    while (I < T.size() && isSpace(T[I]))
      ++I;
  };
  SkipSpace();
  // Labels: `name:`, any number of them.
  for (;;) {
    size_t J = I;
    while (J < T.size() && isLabelChar(T[J]))
      ++J;
    if (J == I || J >= T.size() || T[J] != ':')
      break;
    I = J + 1;
    SkipSpace();
  }
  P.Begin = I;
  size_t J = I;
  while (J < T.size() && !isSpace(T[J]))
    ++J;
  P.Mnemonic = T.slice(I, J).lower();
  I = J;
  SkipSpace();
  P.OperandsBegin = I;
  splitOperands(T.substr(I).rtrim(), P.Operands);
  return P;
}

bool operandReference(StringRef Op, unsigned &N, StringRef &Modifier) {
  if (Op.size() < 3 || Op.front() != kOperandBegin || Op.back() != kOperandEnd)
    return false;
  StringRef Body = Op.drop_front().drop_back();
  if (Body.contains(kOperandBegin))
    return false;
  auto [Number, Mod] = Body.split(':');
  Modifier = Mod;
  return !Number.getAsInteger(10, N);
}

bool mentionsOperand(StringRef Op) { return Op.contains(kOperandBegin); }

void collectMacros(StringRef Text, StringSet<> &Macros) {
  while (!Text.empty()) {
    size_t At = Text.find_insensitive(".macro");
    if (At == StringRef::npos)
      return;
    Text = Text.substr(At + 6);
    if (Text.empty() || !isSpace(Text[0]))
      continue;
    StringRef Name = Text.ltrim();
    Name = Name.take_while([](char C) { return isLabelChar(C); });
    if (!Name.empty())
      Macros.insert(Name.lower());
  }
}

} // namespace pcmap
