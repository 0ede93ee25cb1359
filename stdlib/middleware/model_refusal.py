"""`model_refusal` (G1): a model's explicit refusal becomes an error, not the final answer.

Input: the model's response inside `wrap_model_call`. Output: the response unchanged, or
`ModelRefusalError` when a reply carries a refusal: a `{"type": "refusal"}` content block
(LangChain's standard block) or OpenAI's `refusal` field (kept in `additional_kwargs`).
List it after `model_fallback` so the fallback catches the error, as LangChain advises.
Refusals are never guessed from text, and a refused request is not retried.
"""

from __future__ import annotations

from ..messages import AIMessage, BaseMessage
from .base import AgentMiddleware, ExtendedModelResponse, ModelRequest, ModelResult
from .chain import ModelHandler


class ModelRefusalError(Exception):
    """The model refused to answer; `refusal` is its stated reason."""

    def __init__(self, refusal: str, message: BaseMessage | None = None) -> None:
        super().__init__(f"the model refused: {refusal}")
        self.refusal, self.message = refusal, message


def refusal_of(message: BaseMessage) -> str | None:
    if not isinstance(message, AIMessage):
        return None
    field = (message.additional_kwargs or {}).get("refusal")
    if field:
        return str(field)
    content = message.content if isinstance(message.content, list) else []
    for block in content:
        if isinstance(block, dict) and block.get("type") == "refusal":
            return str(block.get("refusal") or block.get("text") or "")
    return None


class ModelRefusal(AgentMiddleware):
    async def awrap_model_call(self, request: ModelRequest, handler: ModelHandler) -> ModelResult:
        response = await handler(request)  # normalised by the chain (`as_model_response`)
        inner = response.model_response if isinstance(response, ExtendedModelResponse) else response
        for message in inner.result:
            refusal = refusal_of(message)
            if refusal is not None:
                raise ModelRefusalError(refusal, message)
        return response


ModelRefusalMiddleware = ModelRefusal
