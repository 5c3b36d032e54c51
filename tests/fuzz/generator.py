"""Seeded random straight-line NumPy programs.

A program is a list of statements (Python source, each one line or one `if`/`else`
block), written against a module called `np`. The generator runs each statement on
real NumPy as it goes and chooses the next one from the variables that exist and their
shapes and dtypes, so most statements are valid and some are deliberately wrong
(bad shapes, axes, indices, dtypes), as a user's would be. The same seed gives the same
program on a given NumPy version.
"""

from __future__ import annotations

import random
import warnings

import numpy

DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128")
SHAPES = ((), (0,), (1,), (3,), (4,), (2, 3), (3, 1), (1, 3), (0, 3), (2, 0), (2, 2),
          (3, 3), (2, 1, 3), (1, 2, 2))
MAX_SIZE = 400  # no variable a statement uses is larger: programs stay fast

BINARY = ("+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<", "<=", "==", "!=",
          ">", ">=", "<<", ">>")
INPLACE = ("+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "|=", "^=")
UNARY = ("negative", "absolute", "sqrt", "exp", "log", "sin", "cos", "tanh", "floor",
         "ceil", "rint", "sign", "square", "isnan", "isfinite", "isinf", "logical_not",
         "invert", "conj", "real", "imag", "exp2", "log1p", "expm1", "arctan",
         "reciprocal", "positive", "signbit", "trunc", "cbrt", "angle", "nan_to_num",
         "copy", "asarray", "ascontiguousarray")
BINARY_FUNCS = ("maximum", "minimum", "fmax", "fmin", "hypot", "arctan2", "power",
                "floor_divide", "remainder", "logical_and", "logical_or", "bitwise_and",
                "bitwise_xor", "copysign", "add", "subtract", "multiply", "true_divide",
                "greater", "equal", "fmod", "heaviside", "nextafter", "ldexp", "divmod")
REDUCTIONS = ("sum", "mean", "prod", "max", "min", "argmax", "argmin", "any", "all",
              "std", "var", "cumsum", "cumprod", "ptp", "count_nonzero", "median",
              "nansum", "nanmax", "average")
PY_INTS = (0, 1, 2, 3, -1, -3, 7, 127, 128, 255, 256, -129, 2**31, 2**63 - 1, 2**63, -2**63,
           2**64, -2**64 + 1, 10**20)
PY_FLOATS = (0.5, -1.25, 3.0, 0.0, -0.0, 1e10, 1e-5, float("inf"), float("-inf"),
             float("nan"), 2.5e38, 65504.0, 1e300)
PY_COMPLEX = ("1j", "(1+2j)", "(-0.5+0j)", "complex(float('inf'), 1)",
              "complex(float('nan'), 0)")


class Generator:
    """Writes one program: `Generator(seed).program()` -> list of statements."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.ns: dict = {"np": numpy, "__name__": "fuzzgen"}
        self.count = 0
        self.kinds: list[str] = []

    # ----- the program ----------------------------------------------------------
    def program(self, length: int | None = None) -> list[str]:
        rng = self.rng
        length = length if length is not None else rng.randint(5, 40)
        statements = []
        for _ in range(3):  # every program starts from a few arrays
            statements.append(self._emit(self.create()))
        while len(statements) < length:
            for _attempt in range(6):
                kind, source = self.statement()
                if source is None:
                    continue
                # Most statements are valid; a wrong one is kept a fifth of the time.
                ok = self._try(source)
                if ok or rng.random() < 0.2:
                    statements.append(source)
                    self.kinds.append(kind)
                    break
        return statements

    def _emit(self, source: str) -> str:
        self.kinds.append("create")
        self._try(source)
        return source

    def _try(self, source: str) -> bool:
        try:
            with numpy.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(source, self.ns)  # noqa: S102  (our own generated code)
            return True
        except Exception:  # noqa: BLE001  (a wrong statement is part of the program)
            return False

    def statement(self):
        rng = self.rng
        kinds = (("create", self.create, 6), ("binary", self.binary, 14),
                 ("inplace", self.inplace, 8), ("unary", self.unary, 8),
                 ("binary_func", self.binary_func, 6), ("astype", self.astype, 4),
                 ("view", self.view, 10), ("write", self.write, 10),
                 ("fancy", self.fancy, 6), ("reduce", self.reduce, 9),
                 ("read", self.read, 6), ("if", self.if_block, 4),
                 ("manip", self.manip, 7), ("scalar", self.scalar, 3),
                 ("where", self.where, 4))
        total = sum(w for _, _, w in kinds)
        pick = rng.uniform(0, total)
        for kind, make, weight in kinds:
            pick -= weight
            if pick <= 0:
                return kind, make()
        return kinds[-1][0], kinds[-1][1]()

    # ----- naming and operands --------------------------------------------------
    def new_name(self) -> str:
        if self.count > 4 and self.rng.random() < 0.15:  # rebinding a name is common too
            return f"v{self.rng.randrange(self.count)}"
        self.count += 1
        return f"v{self.count - 1}"

    def arrays(self, scalars: bool = True) -> list[str]:
        out = []
        for name, value in self.ns.items():
            if name.startswith("v") and isinstance(value, (numpy.ndarray, numpy.generic)):
                if value.size <= MAX_SIZE and (scalars or isinstance(value, numpy.ndarray)):
                    out.append(name)
        return sorted(out)

    def array(self, scalars: bool = True) -> str | None:
        names = self.arrays(scalars)
        return self.rng.choice(names) if names else None

    def value(self, name):
        return self.ns[name]

    def py_scalar(self) -> str:
        rng = self.rng
        r = rng.random()
        if r < 0.45:
            return repr(rng.choice(PY_INTS[:9]) if rng.random() < 0.8 else rng.choice(PY_INTS))
        if r < 0.8:
            return repr(rng.choice(PY_FLOATS[:6]) if rng.random() < 0.7 else
                        rng.choice(PY_FLOATS)).replace("inf", "float('inf')").replace(
                            "nan", "float('nan')")
        if r < 0.9:
            return rng.choice(("True", "False"))
        return rng.choice(PY_COMPLEX)

    def np_scalar(self) -> str:
        dt = self.rng.choice(DTYPES)
        return f"np.{dt}({self.literal_value(dt)})"

    def operand(self, like: str | None = None) -> str:
        """Another operand for a binary operation with `like`: mostly an array of a
        broadcast-compatible shape, or a Python or NumPy scalar."""
        rng = self.rng
        r = rng.random()
        if r < 0.3:
            return self.py_scalar()
        if r < 0.38:
            return self.np_scalar()
        if like is not None and rng.random() < 0.7:
            shape = numpy.shape(self.value(like))
            fits = [n for n in self.arrays() if _broadcastable(numpy.shape(self.value(n)), shape)]
            if fits:
                return rng.choice(fits)
        return self.array() or self.py_scalar()

    def literal_value(self, dt: str):
        rng = self.rng
        if dt == "bool":
            return rng.choice(("True", "False"))
        if dt.startswith("uint"):
            return str(rng.choice((0, 1, 2, 3, 5, 9, 200)))
        if dt.startswith("int"):
            return str(rng.choice((0, 1, 2, -1, -3, 5, 9, -100)))
        if dt.startswith("float"):
            return rng.choice(("0.5", "-1.25", "3.0", "0.0", "2.0", "-7.5", "1e3",
                               "float('nan')", "float('inf')", "-0.0"))
        return rng.choice(("(1+2j)", "(-0.5+0j)", "3j", "(2-1j)", "0j",
                           "complex(float('inf'), 1)"))

    def literal(self, shape: tuple, dt: str) -> str:
        if shape == ():
            return self.literal_value(dt)
        if shape[0] == 0:
            return "[]" if len(shape) == 1 else "np.zeros(%r)" % (shape,)
        return "[" + ", ".join(self.literal(shape[1:], dt) for _ in range(shape[0])) + "]"

    # ----- statement kinds ------------------------------------------------------
    def create(self) -> str:
        rng = self.rng
        name, dt = self.new_name(), rng.choice(DTYPES)
        shape = rng.choice(SHAPES)
        r = rng.random()
        if r < 0.5:
            lit = self.literal(shape, dt)
            if lit.startswith("np.zeros"):
                return f"{name} = np.zeros({shape!r}, dtype=np.{dt})"
            return f"{name} = np.array({lit}, dtype=np.{dt})"
        if r < 0.62:
            n = rng.choice((0, 1, 3, 5, 6, 12))
            return f"{name} = np.arange({n}, dtype=np.{dt})" if rng.random() < 0.6 else \
                f"{name} = np.arange({n})"
        if r < 0.74:
            f = rng.choice(("zeros", "ones"))
            return f"{name} = np.{f}({shape!r}, np.{dt})"
        if r < 0.84:
            return f"{name} = np.full({shape!r}, {self.py_scalar()}, dtype=np.{dt})"
        if r < 0.9:
            return f"{name} = np.linspace({rng.choice((-2, 0, 1))}, {rng.choice((1, 5))}, " \
                   f"{rng.choice((0, 1, 4, 6))})"
        if r < 0.95:
            return f"{name} = np.eye({rng.choice((0, 1, 2, 3))}, dtype=np.{dt})"
        return f"{name} = {self.py_scalar()}"

    def binary(self):
        a = self.array()
        if a is None:
            return None
        b = self.operand(a)
        op = self.rng.choice(BINARY)
        left, right = (a, b) if self.rng.random() < 0.75 else (b, a)
        return f"{self.new_name()} = {left} {op} {right}"

    def inplace(self):
        a = self.array()
        if a is None:
            return None
        return f"{a} {self.rng.choice(INPLACE)} {self.operand(a)}"

    def unary(self):
        a = self.array()
        if a is None:
            return None
        f = self.rng.choice(UNARY)
        return f"{self.new_name()} = np.{f}({a})"

    def binary_func(self):
        a = self.array()
        if a is None:
            return None
        f = self.rng.choice(BINARY_FUNCS)
        return f"{self.new_name()} = np.{f}({a}, {self.operand(a)})"

    def astype(self):
        a = self.array()
        if a is None:
            return None
        dt = self.rng.choice(DTYPES)
        extra = self.rng.choice(("", "", "", ", copy=False", ", casting='same_kind'",
                                 ", casting='safe'", ", order='F'"))
        return f"{self.new_name()} = {a}.astype(np.{dt}{extra})"

    def slice_key(self, shape) -> str:
        rng = self.rng
        parts = []
        for n in shape[:rng.randint(1, max(1, len(shape)))]:
            r = rng.random()
            if r < 0.3:
                parts.append(str(rng.randint(-n - 1, n)))
            elif r < 0.85:
                start = rng.choice(("", str(rng.randint(-n - 3, n + 2))))
                stop = rng.choice(("", str(rng.randint(-n - 3, n + 2))))
                step = rng.choice(("", "", ":2", ":-1", ":-2", ":3"))
                parts.append(f"{start}:{stop}{step}")
            elif r < 0.93:
                parts.append("None")
            else:
                parts.append("...")
        return ", ".join(parts) if parts else "..."

    def view(self):
        rng = self.rng
        a = self.array()
        if a is None:
            return None
        shape = numpy.shape(self.value(a))
        name = self.new_name()
        r = rng.random()
        if r < 0.35 and shape:
            return f"{name} = {a}[{self.slice_key(shape)}]"
        size = int(numpy.prod(shape))
        options = [f"{a}[None]", f"{a}[...]", f"{a}.T", f"{a}.ravel()", f"np.flip({a})",
                   f"{a}.reshape(-1)", f"{a}.real", f"{a}.imag", f"{a}.squeeze()",
                   f"np.expand_dims({a}, 0)", f"np.transpose({a})",
                   f"{a}.reshape({size}, 1)", f"np.broadcast_to({a}, (2,) + {a}.shape)",
                   f"np.diagonal({a})", f"np.diag({a})", f"{a}.swapaxes(0, -1)",
                   f"np.array({a}, copy=False)", f"{a}[::-1]", f"{a}.view()",
                   f"np.moveaxis({a}, 0, -1)", f"np.atleast_2d({a})"]
        return f"{name} = {rng.choice(options)}"

    def index_key(self, shape) -> str:
        rng = self.rng
        if not shape:
            return rng.choice(("...", "()", "None"))
        n = shape[0]
        r = rng.random()
        if r < 0.3:
            return self.slice_key(shape)
        if r < 0.5:
            k = rng.randint(0, 3)
            return "[" + ", ".join(str(rng.randint(-n - 1, n)) for _ in range(k)) + "]"
        if r < 0.7:
            return f"{self.array_name_like(shape)} > 0" if rng.random() < 0.5 else \
                f"np.arange({n}) % 2 == 0"
        if r < 0.85:
            return f"np.arange({rng.randint(0, 4)}) - {rng.randint(0, 4)}"
        return str(rng.randint(-n - 1, n))

    def array_name_like(self, shape) -> str:
        fits = [n for n in self.arrays(scalars=False) if numpy.shape(self.value(n)) == shape
                and self.value(n).dtype.kind != "c"]
        return self.rng.choice(fits) if fits else f"np.ones({shape!r})"

    def write(self):
        a = self.array(scalars=False)
        if a is None:
            return None
        shape = numpy.shape(self.value(a))
        value = self.py_scalar() if self.rng.random() < 0.6 else self.operand()
        return f"{a}[{self.index_key(shape)}] = {value}"

    def fancy(self):
        a = self.array(scalars=False)
        if a is None:
            return None
        shape = numpy.shape(self.value(a))
        key = self.index_key(shape)
        if self.rng.random() < 0.15:
            return f"{self.new_name()} = np.take({a}, [{self.rng.randint(-3, 3)}])"
        return f"{self.new_name()} = {a}[{key}]"

    def reduce(self):
        rng = self.rng
        a = self.array()
        if a is None:
            return None
        f = rng.choice(REDUCTIONS)
        ndim = numpy.ndim(self.value(a))
        args = []
        if rng.random() < 0.4:
            args.append(f"axis={rng.randint(-ndim - 1, ndim)}")
        if rng.random() < 0.2 and f not in ("argmax", "argmin", "cumsum", "cumprod",
                                              "count_nonzero", "median", "average"):
            args.append("keepdims=True")
        if rng.random() < 0.1 and f in ("sum", "prod", "mean", "cumsum"):
            args.append(f"dtype=np.{rng.choice(DTYPES)}")
        if rng.random() < 0.08 and f in ("std", "var"):
            args.append("ddof=1")
        call = ", ".join([a] + args)
        if rng.random() < 0.5 and f not in ("count_nonzero", "median", "nansum", "nanmax",
                                             "average", "ptp"):
            return f"{self.new_name()} = {a}.{f}({', '.join(args)})"
        return f"{self.new_name()} = np.{f}({call})"

    def read(self):
        rng = self.rng
        a = self.array()
        if a is None:
            return None
        name = self.new_name()
        options = [f"float({a}.sum())", f"int({a}.max())", f"bool({a}.any())",
                   f"{a}.tolist()", f"{a}.item()" if numpy.size(self.value(a)) == 1 else
                   f"{a}.ravel()[0].item()", f"len({a})", f"{a}.shape", f"complex({a}.mean())",
                   f"float({a}.ravel()[-1])", f"int({a}.sum())", f"{a}.ndim + {a}.size",
                   f"float({a}[...].prod())", f"str({a}.dtype)", f"{a}.nbytes",
                   f"{a} == 'x'", f"bool({a}.all())", f"float(np.mean({a}))",
                   f"int(np.argmax({a}))", f"{a}.flags.writeable"]
        return f"{name} = {rng.choice(options)}"

    def condition(self) -> str:
        a = self.array() or "np.ones(1)"
        c = self.py_scalar() if self.rng.random() < 0.3 else "0"
        return self.rng.choice((f"{a}.sum() > {c}", f"{a}.any()", f"float({a}.mean()) < 1",
                                f"{a}.size > 2 and {a}.ravel()[0] > 0", f"{a}.all()",
                                f"np.isnan({a}).any()"))

    def if_block(self):
        cond = self.condition()
        body = self.binary() or self.create()
        other = self.inplace() or self.create()
        return f"if {cond}:\n    {body}\nelse:\n    {other}"

    def manip(self):
        rng = self.rng
        a = self.array()
        if a is None:
            return None
        b = self.operand(a) if rng.random() < 0.3 else (self.array() or a)
        ndim = numpy.ndim(self.value(a))
        options = [f"np.concatenate([{a}, {b}])", f"np.stack([{a}, {a}])",
                   f"np.sort({a})", f"np.argsort({a}, kind='stable')", f"np.unique({a})",
                   f"np.dot({a}, {b})", f"{a} @ {b}", f"np.tile({a}, 2)",
                   f"np.repeat({a}, 2)", f"np.roll({a}, {rng.randint(-3, 3)})",
                   f"np.cumsum({a})", f"np.outer({a}, {b})", f"np.nonzero({a})[0]",
                   f"np.concatenate([{a}, {b}], axis={rng.randint(-ndim - 1, ndim)})",
                   f"np.tril({a})", f"np.round({a}, {rng.randint(-1, 2)})",
                   f"np.vstack([{a}, {b}])", f"np.diff({a})", f"np.trace({a})",
                   f"np.einsum('i,i', {a}, {b})", f"np.vdot({a}, {b})",
                   f"np.searchsorted(np.sort({a}.ravel()), {b})",
                   f"np.argwhere({a})", f"np.flatnonzero({a})", f"np.abs({a}).sum()",
                   f"np.isclose({a}, {b})", f"np.allclose({a}, {b})",
                   f"np.array_equal({a}, {b})", f"np.squeeze({a})", f"np.pad({a}, 1)"]
        return f"{self.new_name()} = {rng.choice(options)}"

    def where(self):
        rng = self.rng
        a = self.array()
        if a is None:
            return None
        b = self.operand(a)
        if rng.random() < 0.5:
            return f"{self.new_name()} = np.where({a} > 1, {a}, {b})"
        lo, hi = self.py_scalar(), self.py_scalar()
        return f"{self.new_name()} = np.clip({a}, {lo}, {hi})"

    def scalar(self):
        a = self.array()
        if a is None or self.rng.random() < 0.4:
            return f"{self.new_name()} = {self.py_scalar()}"
        return f"{self.new_name()} = {a}.size * {self.py_scalar()}"


def _broadcastable(a: tuple, b: tuple) -> bool:
    for x, y in zip(reversed(a), reversed(b)):
        if x != y and x != 1 and y != 1:
            return False
    return True


def generate(seed: int) -> list[str]:
    """The program of `seed`."""
    return Generator(seed).program()
