// C++ names of the kind that widen tables: templates of templates, the
// anonymous namespace, operators and a lambda (test/report/short-names.test).
#include <atomic>
#include <map>
#include <string>
#include <vector>
namespace {
template <class K, class V> struct Cache {
  std::map<K, std::vector<V>> M;
  std::atomic<long> Hits{0};
  __attribute__((noinline)) long lookup(const K &Key, std::vector<V> *Out) {
    Hits.fetch_add(1);
    auto It = M.find(Key);
    if (It != M.end())
      *Out = It->second;
    return Hits.load();
  }
};
} // namespace
struct Cmp {
  bool operator<(const Cmp &) const { return false; }
  int operator()(int X) const { return X; }
};
int main() {
  Cache<std::string, std::pair<int, std::string>> C;
  std::vector<std::pair<int, std::string>> V;
  auto L = [&](int X) { return C.lookup(std::to_string(X), &V); };
  return int(L(1) + Cmp()(2));
}
