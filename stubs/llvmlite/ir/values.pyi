from llvmlite.ir import (
    Argument as Argument,
)
from llvmlite.ir import (
    ArgumentAttributes as ArgumentAttributes,
)
from llvmlite.ir import (
    AttributeSet as AttributeSet,
)
from llvmlite.ir import (
    Block as Block,
)
from llvmlite.ir import (
    Constant as Constant,
)
from llvmlite.ir import (
    Function as Function,
)
from llvmlite.ir import (
    FunctionAttributes as FunctionAttributes,
)
from llvmlite.ir import (
    GlobalValue as GlobalValue,
)
from llvmlite.ir import (
    GlobalVariable as GlobalVariable,
)
from llvmlite.ir import (
    NamedValue as NamedValue,
)
from llvmlite.ir import (
    Value as Value,
)
