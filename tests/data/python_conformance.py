# The Python conformance harness (sandbox/tests/it/python_conformance.rs): run by the bot's first
# line, before a CPython test file's own lines, inside the sandbox as an ordinary bot. It serves
# the imports the test files make that no bot may: `unittest` and `test.support` are small
# stand-ins written here, `test.<helper>` modules are the suite's own files (their sources in
# `_SOURCES`, set by the first line), and any module the bot's allow-list refuses becomes a
# stand-in whose every attribute raises SkipTest (the test that needs it is skipped, with why).
# The bot's allow-list itself is unchanged: allowed modules go through the arena's own import.
# `act` runs one test per decision: {"count": true} -> the number of tests, {"name": i},
# {"run": i} -> "pass", "fail: ...", "skip: ...".

_arena_import = __builtins__.__import__ if hasattr(__builtins__, "__import__") else __builtins__["__import__"]


class _Module:
    def __init__(self, name, attrs=None):
        self.__name__ = name
        if attrs:
            self.__dict__.update(attrs)


class _SkipTest(Exception):
    pass


class _Missing(_Module):
    """A module a bot cannot import: using it skips the test."""

    def __getattr__(self, attr):
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        raise _SkipTest(f"needs {self.__name__}.{attr} ({self.__name__} is not available to bots)")


# ---- unittest --------------------------------------------------------------------------------


def _skip(reason):
    def mark(f):
        f.__unittest_skip__ = True
        f.__unittest_skip_why__ = reason
        return f

    return mark


def _skip_if(cond, reason):
    return _skip(reason) if cond else (lambda f: f)


def _skip_unless(cond, reason):
    return _skip(reason) if not cond else (lambda f: f)


def _expected_failure(f):
    f.__unittest_expecting_failure__ = True
    return f


class _Raises:
    def __init__(self, case, expected, regex=None, msg=None):
        self.case, self.expected, self.regex, self.msg = case, expected, regex, msg
        self.exception = None

    def __enter__(self):
        return self

    def __exit__(self, typ, value, tb):
        name = getattr(self.expected, "__name__", str(self.expected))
        if typ is None:
            raise AssertionError(self.msg or f"{name} not raised")
        if not issubclass(typ, self.expected):
            return False
        self.exception = value
        if self.regex is not None:
            import re

            if not re.search(self.regex, str(value)):
                raise AssertionError(f"{self.regex!r} does not match {str(value)!r}")
        return True


class _Nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _fmt(a, b, op):
    return f"{a!r:.300} {op} {b!r:.300}"


class TestCase:
    failureException = AssertionError
    longMessage = True
    maxDiff = 640

    def __init__(self, methodName="runTest"):
        self._testMethodName = methodName
        self._cleanups = []

    @classmethod
    def setUpClass(cls):
        pass

    @classmethod
    def tearDownClass(cls):
        pass

    def setUp(self):
        pass

    def tearDown(self):
        pass

    def id(self):
        return f"{type(self).__name__}.{self._testMethodName}"

    def addCleanup(self, f, *args, **kwargs):
        self._cleanups.append((f, args, kwargs))

    def doCleanups(self):
        while self._cleanups:
            f, args, kwargs = self._cleanups.pop()
            f(*args, **kwargs)

    def enterContext(self, cm):
        result = cm.__enter__()
        self.addCleanup(cm.__exit__, None, None, None)
        return result

    def skipTest(self, reason):
        raise _SkipTest(reason)

    def subTest(self, msg=None, **params):
        return _Nothing()

    def fail(self, msg=None):
        raise AssertionError(msg)

    def _check(self, ok, default, msg):
        if not ok:
            raise AssertionError(f"{default} : {msg}" if msg is not None else default)

    def assertEqual(self, a, b, msg=None):
        self._check(a == b, _fmt(a, b, "!="), msg)

    def assertNotEqual(self, a, b, msg=None):
        self._check(a != b, _fmt(a, b, "=="), msg)

    def assertTrue(self, x, msg=None):
        self._check(x, f"{x!r:.300} is not true", msg)

    def assertFalse(self, x, msg=None):
        self._check(not x, f"{x!r:.300} is not false", msg)

    def assertIs(self, a, b, msg=None):
        self._check(a is b, _fmt(a, b, "is not"), msg)

    def assertIsNot(self, a, b, msg=None):
        self._check(a is not b, _fmt(a, b, "is"), msg)

    def assertIsNone(self, x, msg=None):
        self._check(x is None, f"{x!r:.300} is not None", msg)

    def assertIsNotNone(self, x, msg=None):
        self._check(x is not None, "unexpectedly None", msg)

    def assertIn(self, a, b, msg=None):
        self._check(a in b, _fmt(a, b, "not found in"), msg)

    def assertNotIn(self, a, b, msg=None):
        self._check(a not in b, _fmt(a, b, "unexpectedly found in"), msg)

    def assertIsInstance(self, x, cls, msg=None):
        self._check(isinstance(x, cls), f"{x!r:.300} is not an instance of {cls!r}", msg)

    def assertNotIsInstance(self, x, cls, msg=None):
        self._check(not isinstance(x, cls), f"{x!r:.300} is an instance of {cls!r}", msg)

    def assertGreater(self, a, b, msg=None):
        self._check(a > b, _fmt(a, b, "not greater than"), msg)

    def assertGreaterEqual(self, a, b, msg=None):
        self._check(a >= b, _fmt(a, b, "not greater than or equal to"), msg)

    def assertLess(self, a, b, msg=None):
        self._check(a < b, _fmt(a, b, "not less than"), msg)

    def assertLessEqual(self, a, b, msg=None):
        self._check(a <= b, _fmt(a, b, "not less than or equal to"), msg)

    def assertAlmostEqual(self, a, b, places=None, msg=None, delta=None):
        if a == b:
            return
        if delta is not None:
            self._check(abs(a - b) <= delta, _fmt(a, b, f"!= within {delta!r} delta"), msg)
        else:
            places = 7 if places is None else places
            self._check(round(abs(a - b), places) == 0, _fmt(a, b, f"!= within {places} places"), msg)

    def assertNotAlmostEqual(self, a, b, places=None, msg=None, delta=None):
        if delta is not None:
            self._check(a != b and abs(a - b) > delta, _fmt(a, b, f"== within {delta!r} delta"), msg)
        else:
            places = 7 if places is None else places
            self._check(a != b and round(abs(a - b), places) != 0, _fmt(a, b, f"== within {places} places"), msg)

    def assertCountEqual(self, a, b, msg=None):
        a, b = list(a), list(b)
        for x in a:
            for i, y in enumerate(b):
                if x == y:
                    del b[i]
                    break
            else:
                self._check(False, f"{x!r:.300} only in the first", msg)
        self._check(not b, f"{b!r:.300} only in the second", msg)

    def assertSequenceEqual(self, a, b, msg=None, seq_type=None):
        if seq_type is not None:
            self.assertIsInstance(a, seq_type, msg)
            self.assertIsInstance(b, seq_type, msg)
        self._check(len(a) == len(b) and all(x == y for x, y in zip(a, b)), _fmt(a, b, "!="), msg)

    def assertListEqual(self, a, b, msg=None):
        self.assertSequenceEqual(a, b, msg, list)

    def assertTupleEqual(self, a, b, msg=None):
        self.assertSequenceEqual(a, b, msg, tuple)

    def assertDictEqual(self, a, b, msg=None):
        self.assertIsInstance(a, dict, msg)
        self.assertIsInstance(b, dict, msg)
        self.assertEqual(a, b, msg)

    def assertSetEqual(self, a, b, msg=None):
        self.assertEqual(a, b, msg)

    def assertMultiLineEqual(self, a, b, msg=None):
        self.assertEqual(a, b, msg)

    def assertRegex(self, text, regex, msg=None):
        import re

        self._check(re.search(regex, text), f"{regex!r} not found in {text!r:.300}", msg)

    def assertNotRegex(self, text, regex, msg=None):
        import re

        self._check(not re.search(regex, text), f"{regex!r} found in {text!r:.300}", msg)

    def assertRaises(self, expected, *args, **kwargs):
        msg = kwargs.pop("msg", None)
        ctx = _Raises(self, expected, msg=msg)
        if not args:
            return ctx
        with ctx:
            args[0](*args[1:], **kwargs)
        return ctx

    def assertRaisesRegex(self, expected, regex, *args, **kwargs):
        msg = kwargs.pop("msg", None)
        ctx = _Raises(self, expected, regex, msg)
        if not args:
            return ctx
        with ctx:
            args[0](*args[1:], **kwargs)
        return ctx

    def assertWarns(self, *args, **kwargs):
        raise _SkipTest("needs warnings (not available to bots)")

    assertWarnsRegex = assertWarns

    def assertLogs(self, *args, **kwargs):
        raise _SkipTest("needs logging (not available to bots)")

    assertNoLogs = assertLogs
    assertEquals = failUnlessEqual = assertEqual
    assertNotEquals = failIfEqual = assertNotEqual
    assert_ = failUnless = assertTrue
    failIf = assertFalse
    assertAlmostEquals = assertAlmostEqual
    assertNotAlmostEquals = assertNotAlmostEqual
    assertRaisesRegexp = assertRaisesRegex
    assertRegexpMatches = assertRegex


def _main(*args, **kwargs):
    pass


unittest = _Module(
    "unittest",
    {
        "TestCase": TestCase,
        "SkipTest": _SkipTest,
        "skip": _skip,
        "skipIf": _skip_if,
        "skipUnless": _skip_unless,
        "expectedFailure": _expected_failure,
        "main": _main,
        "mock": _Missing("unittest.mock"),
    },
)
del TestCase  # only unittest.TestCase: the runner collects the test file's own classes


# ---- test.support ----------------------------------------------------------------------------


class _AlwaysEq:
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = None


class _NeverEq:
    def __eq__(self, other):
        return False

    def __ne__(self, other):
        return True

    def __hash__(self):
        return 1


class _SwapAttr:
    def __init__(self, obj, attr, value):
        self.obj, self.attr, self.value = obj, attr, value

    def __enter__(self):
        self.had = hasattr(self.obj, self.attr)
        self.old = getattr(self.obj, self.attr, None)
        setattr(self.obj, self.attr, self.value)
        return self.old

    def __exit__(self, *exc):
        if self.had:
            setattr(self.obj, self.attr, self.old)
        else:
            delattr(self.obj, self.attr)
        return False


class _SwapItem:
    def __init__(self, obj, key, value):
        self.obj, self.key, self.value = obj, key, value

    def __enter__(self):
        self.had = self.key in self.obj
        self.old = self.obj.get(self.key)
        self.obj[self.key] = self.value
        return self.old

    def __exit__(self, *exc):
        if self.had:
            self.obj[self.key] = self.old
        else:
            del self.obj[self.key]
        return False


def _check_syntax_error(testcase, statement, errtext="", *, lineno=None, offset=None):
    with testcase.assertRaisesRegex(SyntaxError, errtext) as cm:
        compile(statement, "<test string>", "exec")
    err = cm.exception
    if lineno is not None:
        testcase.assertEqual(err.lineno, lineno)


class _Support(_Missing):
    """test.support: what the suite uses most; its `*_helper` modules are stand-ins."""

    def __getattr__(self, attr):
        if attr.endswith("_helper"):
            return _module(f"test.support.{attr}")
        return _Missing.__getattr__(self, attr)


support = _Support(
    "test.support",
    {
        "verbose": False,
        "is_wasi": True,
        "is_emscripten": False,
        "is_android": False,
        "MISSING_C_DOCSTRINGS": True,
        "Py_DEBUG": False,
        "ALWAYS_EQ": _AlwaysEq(),
        "NEVER_EQ": _NeverEq(),
        "TestFailed": type("TestFailed", (AssertionError,), {}),
        "cpython_only": _skip("CPython implementation detail"),
        "requires_IEEE_754": lambda f: f,
        "check_impl_detail": lambda **guards: guards.get("cpython") is False,
        "gc_collect": lambda: None,
        "check_syntax_error": _check_syntax_error,
        "swap_attr": _SwapAttr,
        "swap_item": _SwapItem,
        "infinite_recursion": lambda *a: _Nothing(),
        "run_unittest": lambda *classes: None,
        "bigmemtest": lambda *a, **k: _skip("a big-memory test"),
        "requires_resource": lambda r: _skip(f"needs the resource {r}"),
    },
)

_MODULES = {"unittest": unittest, "test.support": support}


class _Package(_Module):
    """The `test` package: its modules are loaded on first use."""

    def __getattr__(self, attr):
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        return _module("test." + attr)


def _module(name):
    if name in _MODULES:
        return _MODULES[name]
    if name == "test":
        m = _Package("test")
    elif name in _SOURCES:
        g = {"__name__": name, "__builtins__": __builtins__}
        _MODULES[name] = _Missing(name)  # a module importing itself gets the stand-in
        exec(compile(_SOURCES[name], name.replace(".", "/") + ".py", "exec"), g)
        m = _Module(name, g)
    else:
        m = _Missing(name)
    _MODULES[name] = m
    return m


def _import(name, globals=None, locals=None, fromlist=(), level=0):
    top = name.split(".")[0]
    if level == 0 and top in ("unittest", "test"):
        return _module(name) if fromlist else _module(top)
    try:
        return _arena_import(name, globals, locals, fromlist, level)
    except ImportError:
        return _module(name) if fromlist else _module(top)


if hasattr(__builtins__, "__import__"):
    __builtins__.__import__ = _import
else:
    __builtins__["__import__"] = _import


# ---- the runner ------------------------------------------------------------------------------

_tests = None
_ready = set()


def _collect():
    found = []
    for name, obj in sorted(globals().items()):
        if isinstance(obj, type) and issubclass(obj, unittest.TestCase) and obj is not unittest.TestCase:
            for m in sorted(dir(obj)):
                if m.startswith("test") and callable(getattr(obj, m, None)):
                    found.append((name, obj, m))
    return found


def _short(e):
    return f"{type(e).__name__}: {e}"[:600]


def _run(cls, method):
    if getattr(cls, "__unittest_skip__", False):
        return "skip: " + str(cls.__unittest_skip_why__)
    case = cls(method)
    f = getattr(case, method)
    if getattr(f, "__unittest_skip__", False):
        return "skip: " + str(f.__unittest_skip_why__)
    expecting = getattr(f, "__unittest_expecting_failure__", False)
    try:
        if cls not in _ready:
            _ready.add(cls)
            cls.setUpClass()
        case.setUp()
        try:
            f()
        finally:
            case.tearDown()
            case.doCleanups()
    except _SkipTest as e:
        return "skip: " + str(e)[:600]
    except Exception as e:
        return "pass (an expected failure)" if expecting else "fail: " + _short(e)
    return "fail: unexpected success" if expecting else "pass"


def act(obs):
    global _tests
    if _tests is None:
        _tests = _collect()
    if "count" in obs:
        return str(len(_tests))
    name, cls, method = _tests[obs.get("run", obs.get("name"))]
    if "name" in obs:
        return f"{name}.{method}"
    return _run(cls, method)
