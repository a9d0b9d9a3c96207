// Shared by wait_declared.cpp and wait_declared_key.cpp.
class Comparator {
public:
  virtual ~Comparator();
  virtual int compare(long A, long B) const;
  long Calls = 0;
};
