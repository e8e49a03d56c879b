from llvmlite.ir import (
    Argument as Argument,
    ArgumentAttributes as ArgumentAttributes,
    AttributeSet as AttributeSet,
    Block as Block,
    Constant as Constant,
    Function as Function,
    FunctionAttributes as FunctionAttributes,
    GlobalValue as GlobalValue,
    GlobalVariable as GlobalVariable,
    NamedValue as NamedValue,
    Value as Value,
)
