extern "C" int bump(void);
extern "C" int bump_twice(void) { return bump() + bump(); }
